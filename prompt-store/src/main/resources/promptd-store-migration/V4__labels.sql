-- Labels: a named pointer from a file to one of its versions ("staging", "production"), moved by
-- `promptd label set|rm` and `promptd publish --label`. The label "latest" is implicit (every file's newest version)
-- and is never stored. A label points at a version that holds content, never at a deletion marker.
CREATE TABLE labels (
  path    text    NOT NULL,
  label   text    NOT NULL CHECK (label ~ '^[a-z0-9][a-z0-9._-]{0,63}$' AND label <> 'latest'),
  version integer NOT NULL,
  PRIMARY KEY (path, label),
  FOREIGN KEY (path, version) REFERENCES file_versions (path, version)
);
-- "Which files does label L point at": what a server serving one label reads.
CREATE INDEX labels_by_label ON labels (label);

-- Every move of every label, never updated: from_version NULL when the label was new on the file, to_version NULL
-- when it was removed. library_version is the store's version when it moved (a publish --label records its own).
CREATE TABLE label_moves (
  id              bigserial   PRIMARY KEY,
  path            text        NOT NULL,
  label           text        NOT NULL,
  from_version    integer,
  to_version      integer,
  library_version bigint      NOT NULL,
  author          text        NOT NULL,
  moved_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (from_version IS NOT NULL OR to_version IS NOT NULL)
);
CREATE INDEX label_moves_by_path ON label_moves (path, id);

-- One more with every transaction that moved a label: a server serving a label names what it serves by
-- library_version + labels_version, which grows with every publish and every move, the same on every replica.
ALTER TABLE store ADD COLUMN labels_version bigint NOT NULL DEFAULT 0 CHECK (labels_version >= 0);
