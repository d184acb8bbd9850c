-- arena_message_append, version 2 (migration 0011): version 1 (0009) that also returns the machine
-- witness's engine, so that the caller enqueues a bot's reply only for an engine the platform runs
-- (not for an external program's entry: lpp, lpp2, pull), and the spectator feed's delay (NULL: no
-- feed), so that the caller schedules the message's release to spectators, both without a query of
-- its own. The return type changes, so version 1 is dropped first.
-- One chat message appended in one statement, so in one round trip: lock the conversation row, check
-- the sender, the status, the deadline and the interrogation's message policy (length cap and turn
-- rule, for people only), read the chain's last link, number and time the message (the caller's
-- clock, never before its predecessor), chain its SHA-256 hash exactly as core.hashchain.message_hash does, insert it, and return what the push needs. Called
-- outside a transaction the statement is its own transaction: the message is committed when it
-- returns. A refusal writes nothing and says why in `outcome`; arena/services/messages.py raises it.
-- The Python path that SQLite takes (arena/services/appends.py) makes the same decisions in the same
-- order; tests/arena/test_append_sql.py runs both on the same messages and compares them.
-- Read committed: each statement of this (volatile) function takes a fresh snapshot, so the last-link
-- read, a statement after the lock, sees every message committed by whoever held the lock before.
-- Migrations are history: never edit this file; a new version is a new file and a new migration.
DROP FUNCTION IF EXISTS arena_message_append(bigint, text, bigint, text, timestamptz, boolean);
CREATE FUNCTION arena_message_append(
    p_conversation bigint, p_role text, p_user bigint, p_text text, p_now timestamptz, p_policy boolean,
    OUT outcome text, OUT conversation_id bigint, OUT public_id uuid, OUT side text,
    OUT interrogator_id bigint, OUT witness_human_id bigint, OUT witness_entry_id bigint,
    OUT interrogation_id bigint, OUT status text, OUT witness_label text, OUT cap integer,
    OUT last_role text, OUT message_id bigint, OUT seq integer, OUT prev_hash text, OUT hash text,
    OUT created_at timestamptz, OUT witness_engine text,
    OUT feed_delay_s double precision
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    c record;
    last record;
    body text;
BEGIN
    -- the conversation's own status, not the interrogation's: it is on the locked row, so a message
    -- waiting for the lock while the interrogation ends sees "ended" (PostgreSQL re-reads a locked
    -- row, not the rows joined to it) and is refused instead of landing after the transcript's seal
    SELECT cv.id, cv.public_id, cv.side, cv.interrogator_id, cv.witness_human_id, cv.witness_entry_id,
           cv.interrogation_id, cv.status, i.deadline, i.turn_rule, i.max_message_chars,
           CASE WHEN cv.witness_entry_id IS NOT NULL THEN e.display_name ELSE u.username END AS label,
           e.engine, f.delay_s AS feed_delay
      INTO c
      FROM arena_conversation cv JOIN arena_interrogation i ON i.id = cv.interrogation_id
      LEFT JOIN arena_entry e ON e.id = cv.witness_entry_id
      LEFT JOIN auth_user u ON u.id = cv.witness_human_id
      LEFT JOIN arena_spectatorfeed f ON f.interrogation_id = cv.interrogation_id
     WHERE cv.id = p_conversation FOR UPDATE OF cv;
    IF NOT FOUND THEN outcome := 'missing'; RETURN; END IF;
    conversation_id := c.id; public_id := c.public_id; side := c.side;
    interrogator_id := c.interrogator_id; witness_human_id := c.witness_human_id;
    witness_entry_id := c.witness_entry_id; interrogation_id := c.interrogation_id;
    status := c.status; witness_label := c.label; cap := c.max_message_chars; witness_engine := c.engine;
    feed_delay_s := c.feed_delay;
    IF NOT (CASE p_role
              WHEN 'interrogator' THEN p_user IS NOT DISTINCT FROM c.interrogator_id
              WHEN 'witness' THEN CASE WHEN c.witness_human_id IS NOT NULL
                                       THEN p_user IS NOT DISTINCT FROM c.witness_human_id
                                       ELSE p_user IS NULL END
              ELSE false END) THEN
        outcome := 'sender'; RETURN;
    END IF;
    IF c.status <> 'running' THEN outcome := 'closed'; RETURN; END IF;
    IF c.deadline IS NOT NULL AND p_now >= c.deadline THEN outcome := 'time_up'; RETURN; END IF;
    -- a new statement, so a fresh snapshot taken under the lock
    SELECT m.seq, m.hash, m.sender_role, m.created_at INTO last
      FROM arena_message m WHERE m.conversation_id = p_conversation ORDER BY m.seq DESC LIMIT 1;
    last_role := last.sender_role;
    IF p_policy THEN
        IF c.max_message_chars IS NOT NULL AND char_length(p_text) > c.max_message_chars THEN
            outcome := 'too_long'; RETURN;
        END IF;
        IF c.turn_rule <> 'free' AND ((p_role = 'witness' AND last.seq IS NULL)
                                      OR (c.turn_rule = 'alternate' AND last.sender_role = p_role)) THEN
            outcome := 'not_your_turn'; RETURN;
        END IF;
    END IF;
    seq := COALESCE(last.seq, 0) + 1;
    -- the caller's clock, read before the lock: never before the message it follows (GREATEST skips NULL)
    created_at := GREATEST(p_now, last.created_at);
    prev_hash := COALESCE(last.hash, encode(sha256(convert_to('conversation:' || c.public_id::text, 'UTF8')), 'hex'));
    -- json.dumps([seq, sender_role, text, stamp(created_at)], ensure_ascii=False, separators=(",", ":"))
    body := '[' || seq::text || ',' || to_json(p_role)::text || ',' || to_json(p_text)::text || ','
            || to_json(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'))::text || ']';
    hash := encode(sha256(convert_to(prev_hash || E'\n' || body, 'UTF8')), 'hex');
    INSERT INTO arena_message (conversation_id, seq, sender_role, text, created_at, prev_hash, hash)
         VALUES (p_conversation, seq, p_role, p_text, created_at, prev_hash, hash)
      RETURNING id INTO message_id;
    outcome := 'ok';
END
$$;
