-- Usage per version: how often each version of each prompt was asked for, by whom and with what outcome, counted
-- per minute. Servers write their in-memory counts in batches (StoreUsage), adding to a row that another replica
-- wrote for the same minute. `version` is the first 12 hex digits of the SHA-256 of the prompt's file (its
-- file_versions.sha256 in the store); `label` the label served, or 'latest'.
CREATE TABLE prompt_usage (
  minute         timestamptz NOT NULL,
  prompt         text        NOT NULL,
  version        text        NOT NULL,
  label          text        NOT NULL,
  client         text        NOT NULL,   -- the client's self-reported name, '' when it gave none
  client_version text        NOT NULL,   -- the client's self-reported version, '' when it gave none
  outcome        text        NOT NULL CHECK (outcome IN ('rendered', 'refused', 'form_asked', 'form_declined', 'error')),
  uses           bigint      NOT NULL CHECK (uses > 0),
  total_micros   bigint      NOT NULL CHECK (total_micros >= 0),  -- the uses' durations added up
  PRIMARY KEY (minute, prompt, version, label, client, client_version, outcome)
);
CREATE INDEX prompt_usage_by_prompt ON prompt_usage (prompt, minute);
