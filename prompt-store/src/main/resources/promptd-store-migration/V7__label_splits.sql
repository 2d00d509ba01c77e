-- A/B splits: `promptd label split LABEL NAME 7:90 8:10` makes LABEL serve version 7 or 8 of one prompt file, chosen
-- per caller by weight. The labels row points at the first version given (what tools unaware of splits show); the
-- split's versions and weights are here. Any other move of the label on the file (label set, label rm, publish
-- --label) ends the split.
CREATE TABLE label_splits (
  path     text    NOT NULL,
  label    text    NOT NULL,
  position integer NOT NULL,               -- order given, from 0; position 0 is the labels row's version
  version  integer NOT NULL,
  weight   integer NOT NULL CHECK (weight > 0),
  PRIMARY KEY (path, label, position),
  UNIQUE (path, label, version),
  FOREIGN KEY (path, label) REFERENCES labels (path, label) ON DELETE CASCADE,
  FOREIGN KEY (path, version) REFERENCES file_versions (path, version)
);
CREATE INDEX label_splits_by_label ON label_splits (label);
-- The split a move made, as given ("7:90 8:10"); NULL for a plain move.
ALTER TABLE label_moves ADD COLUMN split text;
