-- markets_trade_place, version 2 (migration 0005, current: the trade row is its own
-- ledger transaction, no LedgerTxn or legs are written).
-- One trade of the linear maker in one round trip. The rules it shares with the ORM path
-- (locking order, checks and refusals, price bounds, what is written) are stated once, in the
-- docstring of markets/services/trading.py; the caller is markets/services/trading_sql.py.
-- tests/markets/test_trading_paths.py runs both paths on the same clicks and compares them.
-- Migrations are history: never edit this file; a new version is a new file and a new migration.
CREATE OR REPLACE FUNCTION markets_trade_place(
    p_game bigint, p_user bigint, p_action text, p_security text, p_key text, p_now timestamptz,
    p_lock boolean DEFAULT true,
    OUT outcome text, OUT trade_id bigint, OUT seq integer, OUT action text, OUT security text,
    OUT cost integer, OUT price_before integer, OUT price_after integer, OUT q_human integer,
    OUT q_computer integer, OUT question_id bigint, OUT created_at timestamptz,
    OUT participant_id bigint, OUT number integer, OUT account_id bigint, OUT holding text,
    OUT quantity integer, OUT balance bigint
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    m record;
    p record;
    maker_account bigint;
    latest bigint;
    up boolean;
    edge integer;
    step integer := CASE WHEN p_action = 'buy' THEN 1 ELSE -1 END;
BEGIN
    -- before the lock (a shorter hold): the maker's account never changes; the current question
    -- is "what the trader saw", as in the Python path
    SELECT (SELECT id FROM markets_account WHERE game_id = p_game AND kind = 'maker'),
           (SELECT q.id FROM markets_question q WHERE q.game_id = p_game AND q.number IS NOT NULL
             ORDER BY q.number DESC LIMIT 1)
      INTO maker_account, latest;
    IF p_lock THEN
        SELECT * INTO m FROM markets_market WHERE game_id = p_game FOR UPDATE;
    ELSE
        SELECT * INTO m FROM markets_market WHERE game_id = p_game;
    END IF;
    IF NOT FOUND THEN outcome := 'no_market'; RETURN; END IF;
    -- a new statement, so a fresh snapshot taken under the market lock: the game's status, the
    -- bettor's position and points, and a trade already made by this click
    IF p_lock THEN
        SELECT pa.id, pa.number, pa.security, pa.quantity, pa.account_id, a.balance,
               g.status, g.deadline, g.market_maker, t.id AS original
          INTO p
          FROM markets_participant pa JOIN markets_account a ON a.id = pa.account_id
          JOIN markets_game g ON g.id = pa.game_id
          LEFT JOIN markets_trade t ON t.participant_id = pa.id AND t.idempotency_key = p_key
         WHERE pa.game_id = p_game AND pa.user_id = p_user FOR UPDATE OF pa;
    ELSE
        SELECT pa.id, pa.number, pa.security, pa.quantity, pa.account_id, a.balance,
               g.status, g.deadline, g.market_maker, t.id AS original
          INTO p
          FROM markets_participant pa JOIN markets_account a ON a.id = pa.account_id
          JOIN markets_game g ON g.id = pa.game_id
          LEFT JOIN markets_trade t ON t.participant_id = pa.id AND t.idempotency_key = p_key
         WHERE pa.game_id = p_game AND pa.user_id = p_user;
    END IF;
    IF NOT FOUND THEN outcome := 'not_bettor'; RETURN; END IF;
    participant_id := p.id; number := p.number; account_id := p.account_id;
    holding := p.security; quantity := p.quantity; balance := p.balance;

    IF p.original IS NOT NULL THEN
        SELECT t.id, t.seq, t.action, t.security, t.cost, t.price_before, t.price_after, t.question_id, t.created_at
          INTO trade_id, seq, action, security, cost, price_before, price_after, question_id, created_at
          FROM markets_trade t WHERE t.id = p.original;
        outcome := 'duplicate'; RETURN;
    END IF;
    IF p.market_maker <> 'linear' THEN outcome := 'python'; RETURN; END IF;
    IF p.status <> 'running' OR (p.deadline IS NOT NULL AND p_now >= p.deadline) THEN
        outcome := 'closed'; RETURN;
    END IF;
    IF p_action = 'buy' AND p.quantity > 0 AND p.security <> p_security THEN outcome := 'other_type'; RETURN; END IF;
    IF p_action = 'sell' AND (p.security <> p_security OR p.quantity < 1) THEN outcome := 'not_held'; RETURN; END IF;

    -- the edge convention (markets/makers.py LinearMaker.quote)
    price_before := m.human_price;
    up := (p_action = 'buy') = (p_security = 'H');
    price_after := CASE WHEN up THEN m.human_price + 1 ELSE m.human_price - 1 END;
    IF price_after < 0 OR price_after > 100 THEN outcome := 'price_bound'; RETURN; END IF;
    edge := CASE WHEN up THEN m.human_price ELSE m.human_price - 1 END;
    cost := step * CASE WHEN p_security = 'H' THEN edge + 1 ELSE 100 - edge END;
    IF cost > p.balance THEN outcome := 'insufficient_points'; RETURN; END IF;

    q_human := m.q_human + CASE WHEN p_security = 'H' THEN step ELSE 0 END;
    q_computer := m.q_computer + CASE WHEN p_security = 'C' THEN step ELSE 0 END;
    quantity := p.quantity + step;
    holding := CASE WHEN quantity > 0 THEN p_security ELSE '' END;
    balance := p.balance - cost;
    seq := m.seq + 1;
    action := p_action; security := p_security; created_at := p_now; question_id := latest;

    -- every write in one statement: both balances (the trade row is the ledger transaction: the
    -- bettor's account pays cost, the maker's receives it), position, market, log
    WITH balances AS (
        UPDATE markets_account SET balance = markets_account.balance
               + CASE WHEN id = p.account_id THEN -cost ELSE cost END
         WHERE id IN (p.account_id, maker_account)
    ), position AS (
        UPDATE markets_participant SET quantity = markets_trade_place.quantity, security = holding WHERE id = p.id
    ), market AS (
        UPDATE markets_market SET human_price = price_after, q_human = markets_trade_place.q_human,
               q_computer = markets_trade_place.q_computer, seq = markets_trade_place.seq
         WHERE id = m.id
    )
    INSERT INTO markets_trade (game_id, seq, participant_id, action, security, cost, price_before, price_after,
                               question_id, idempotency_key, created_at)
    VALUES (p_game, markets_trade_place.seq, p.id, p_action, p_security, cost, price_before, price_after,
            latest, p_key, p_now)
    RETURNING id INTO trade_id;
    outcome := 'ok';
END $$;
