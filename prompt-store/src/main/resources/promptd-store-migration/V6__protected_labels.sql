-- Protected labels: moving one over the management API (promptd serve --manage) needs an OAuth access token that
-- grants its scope. `promptd label protect LABEL --scope SCOPE` and `label unprotect LABEL` keep this table; the
-- command line itself, which holds the database's credentials, may move any label. (V6, not V5: the usage tables were
-- written in parallel as V5, and Flyway runs with outOfOrder so that either order of arrival migrates.)
CREATE TABLE protected_labels (
  label        text        PRIMARY KEY CHECK (label ~ '^[a-z0-9][a-z0-9._-]{0,63}$' AND label <> 'latest'),
  scope        text        NOT NULL CHECK (scope ~ '^[!#-\[\]-~]{1,128}$'),
  protected_by text        NOT NULL,
  protected_at timestamptz NOT NULL DEFAULT now()
);
