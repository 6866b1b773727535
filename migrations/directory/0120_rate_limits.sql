-- Abuse-limit counters shared by every `serve` process (api/ratelimit): one row per limiter and
-- subject, the subject hashed (IP addresses, e-mails and phone numbers are not kept in clear).
-- A fixed window counts hits until reset_at; a failure backoff counts consecutive failures, the last
-- one at updated_at, forgotten at reset_at. Rows past reset_at are swept. UNLOGGED: counters are
-- worth no WAL, and losing them in a crash only restarts the windows.
CREATE UNLOGGED TABLE rate_limits (
    key        text PRIMARY KEY,
    hits       integer NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    reset_at   timestamptz NOT NULL
);

CREATE INDEX rate_limits_reset_at ON rate_limits (reset_at);
