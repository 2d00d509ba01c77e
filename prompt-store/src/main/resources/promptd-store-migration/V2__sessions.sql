-- Legacy HTTP sessions shared by every replica serving the store (promptd serve --http --store). What a session
-- cannot change is in its id, a signed token; what it changes (log level, subscriptions as the transport's own text),
-- its last use and its end are here, one row per session, named by the random key in its id.
CREATE TABLE sessions (
  key         text        PRIMARY KEY,
  state       text        NOT NULL,
  last_active timestamptz NOT NULL,
  ended       boolean     NOT NULL DEFAULT false
);
-- Expiry: "every session last used before T".
CREATE INDEX sessions_by_last_active ON sessions (last_active);

-- One row: the random secret that signs session ids when no --session-secret is given, created by the first
-- replica that needs it, so that replicas share it without configuration.
CREATE TABLE session_secret (
  id     boolean PRIMARY KEY DEFAULT true CHECK (id),
  secret bytea   NOT NULL CHECK (length(secret) = 32)
);
