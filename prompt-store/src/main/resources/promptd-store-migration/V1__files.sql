-- promptd's prompt store: library files with their history.

-- One row: the store-wide version, bumped by every publish that changed anything. Publishes update it with a
-- conditional UPDATE (WHERE library_version = the version they read), which makes concurrent publishes conflict
-- instead of losing an update.
CREATE TABLE store (
  id              boolean PRIMARY KEY DEFAULT true CHECK (id),
  library_version bigint  NOT NULL CHECK (library_version >= 0)
);
INSERT INTO store (id, library_version) VALUES (true, 0);

-- Every publish that changed anything.
CREATE TABLE publishes (
  library_version bigint      PRIMARY KEY,
  based_on        bigint      NOT NULL,
  author          text        NOT NULL,
  published_at    timestamptz NOT NULL DEFAULT now(),
  files_changed   integer     NOT NULL
);

-- Every version of every file: a publish adds a row for each file it adds or changes, and a deletion marker
-- (deleted, no content) for each file it removes. A file's current state is its row with the highest version.
CREATE TABLE file_versions (
  path            text        NOT NULL CHECK (path <> '' AND left(path, 1) <> '/'),
  version         integer     NOT NULL CHECK (version > 0),
  library_version bigint      NOT NULL REFERENCES publishes (library_version),
  deleted         boolean     NOT NULL DEFAULT false,
  content         bytea,
  sha256          text,
  author          text        NOT NULL,
  published_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (path, version),
  CHECK (deleted = (content IS NULL) AND deleted = (sha256 IS NULL))
);
-- Catch-up by version: "the files changed since library version N".
CREATE INDEX file_versions_by_library_version ON file_versions (library_version);
