-- One row: the parsed index of the library (promptd's own binary format, checked by its format version and a
-- checksum), written by a replica after it parsed files on its first load, so that the next replica to start serves
-- those files without parsing them. Entries match files by their sha256; an index older than the files still vouches
-- for those that did not change. Only a cache: deleting the row costs the next start a parse.
CREATE TABLE library_index (
  id              boolean     PRIMARY KEY DEFAULT true CHECK (id),
  library_version bigint      NOT NULL,
  data            bytea       NOT NULL,
  written_at      timestamptz NOT NULL DEFAULT now()
);
