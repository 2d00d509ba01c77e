-- One parsed index per label served: the row '' is the index of each file's newest version (serve --store), the row
-- 'staging' that of what staging points at (serve --store --label staging). A server's first load takes its label's
-- row, else the '' row (entries are matched by content, so any index vouches for the files it shares); a server that
-- parsed files stores its own label's row. Before this, labels pointing at different versions overwrote one row, and
-- each label's next start parsed the other's differences again.
ALTER TABLE library_index DROP COLUMN id;
ALTER TABLE library_index ADD COLUMN label text NOT NULL DEFAULT '';
ALTER TABLE library_index ADD PRIMARY KEY (label);
