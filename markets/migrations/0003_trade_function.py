"""PostgreSQL: one trade of the linear maker in one round trip, `markets_trade_place(...)`.

The same steps as the Python path of `markets.services.trading` (which SQLite, the LMSR treatment and
the deliberately unlocked test variant use; tests run both paths on the same trades and compare):
lock the market row, then the bettor's row; a repeated click returns the original trade; check the
game is running, one security type, holdings, the price bounds and the points; post two ledger legs
(bettor <-> maker) and move both cached balances; update position, market and the trade log. A refusal
is returned as `outcome` (nothing written); Python turns it into the same error as its own path.

`p_lock => false` reads the market and the bettor unlocked (the broken variant the concurrency test
shows losing updates); every caller in the platform locks.
"""
from django.db import migrations

from markets.pgsql import run_on_postgresql

CREATE = """
CREATE OR REPLACE FUNCTION markets_trade_place(
    p_game bigint, p_user bigint, p_action text, p_security text, p_key text, p_now timestamptz,
    p_lock boolean DEFAULT true,
    OUT outcome text, OUT trade_id bigint, OUT seq integer, OUT action text, OUT security text,
    OUT cost integer, OUT price_before integer, OUT price_after integer, OUT q_human integer,
    OUT q_computer integer, OUT question_id bigint, OUT txn_id bigint, OUT created_at timestamptz,
    OUT participant_id bigint, OUT number integer, OUT account_id bigint, OUT holding text,
    OUT quantity integer, OUT balance bigint
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    m record;
    g record;
    p record;
    up boolean;
    edge integer;
    maker_account bigint;
BEGIN
    IF p_lock THEN
        SELECT * INTO m FROM markets_market WHERE game_id = p_game FOR UPDATE;
    ELSE
        SELECT * INTO m FROM markets_market WHERE game_id = p_game;
    END IF;
    IF NOT FOUND THEN outcome := 'no_market'; RETURN; END IF;
    SELECT status, deadline, market_maker INTO g FROM markets_game WHERE id = p_game;
    IF g.market_maker <> 'linear' THEN outcome := 'python'; RETURN; END IF;
    IF p_lock THEN
        SELECT pa.id, pa.number, pa.security, pa.quantity, pa.account_id, a.balance INTO p
          FROM markets_participant pa JOIN markets_account a ON a.id = pa.account_id
         WHERE pa.game_id = p_game AND pa.user_id = p_user FOR UPDATE OF pa;
    ELSE
        SELECT pa.id, pa.number, pa.security, pa.quantity, pa.account_id, a.balance INTO p
          FROM markets_participant pa JOIN markets_account a ON a.id = pa.account_id
         WHERE pa.game_id = p_game AND pa.user_id = p_user;
    END IF;
    IF NOT FOUND THEN outcome := 'not_bettor'; RETURN; END IF;
    participant_id := p.id; number := p.number; account_id := p.account_id;
    holding := p.security; quantity := p.quantity; balance := p.balance;

    SELECT t.id, t.seq, t.action, t.security, t.cost, t.price_before, t.price_after, t.question_id, t.txn_id, t.created_at
      INTO trade_id, seq, action, security, cost, price_before, price_after, question_id, txn_id, created_at
      FROM markets_trade t WHERE t.participant_id = p.id AND t.idempotency_key = p_key;
    IF FOUND THEN outcome := 'duplicate'; RETURN; END IF;

    IF g.status <> 'running' OR (g.deadline IS NOT NULL AND p_now >= g.deadline) THEN
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
    cost := CASE WHEN p_security = 'H' THEN edge + 1 ELSE 100 - edge END;
    IF p_action = 'sell' THEN cost := -cost; END IF;
    IF cost > p.balance THEN outcome := 'insufficient_points'; RETURN; END IF;

    q_human := m.q_human + CASE WHEN p_security = 'H' THEN (CASE WHEN p_action = 'buy' THEN 1 ELSE -1 END) ELSE 0 END;
    q_computer := m.q_computer + CASE WHEN p_security = 'C' THEN (CASE WHEN p_action = 'buy' THEN 1 ELSE -1 END) ELSE 0 END;
    quantity := p.quantity + CASE WHEN p_action = 'buy' THEN 1 ELSE -1 END;
    holding := CASE WHEN quantity > 0 THEN p_security ELSE '' END;
    balance := p.balance - cost;
    seq := m.seq + 1;
    action := p_action; security := p_security; created_at := p_now;

    SELECT id INTO maker_account FROM markets_account WHERE game_id = p_game AND kind = 'maker';
    INSERT INTO markets_ledgertxn (game_id, kind, participant_id, created_at)
         VALUES (p_game, 'trade', NULL, p_now) RETURNING id INTO txn_id;
    INSERT INTO markets_ledgerentry (txn_id, account_id, amount)
         VALUES (txn_id, p.account_id, -cost), (txn_id, maker_account, cost);
    UPDATE markets_account SET balance = markets_account.balance
           + CASE WHEN id = p.account_id THEN -cost ELSE cost END
     WHERE id IN (p.account_id, maker_account);
    UPDATE markets_participant SET quantity = markets_trade_place.quantity, security = holding WHERE id = p.id;
    UPDATE markets_market SET human_price = price_after, q_human = markets_trade_place.q_human,
           q_computer = markets_trade_place.q_computer, seq = markets_trade_place.seq
     WHERE id = m.id;
    SELECT q.id INTO question_id FROM markets_question q
     WHERE q.game_id = p_game AND q.number IS NOT NULL ORDER BY q.number DESC LIMIT 1;
    INSERT INTO markets_trade (game_id, seq, participant_id, action, security, cost, price_before, price_after,
                               question_id, txn_id, idempotency_key, created_at)
         VALUES (p_game, seq, p.id, p_action, p_security, cost, price_before, price_after,
                 question_id, txn_id, p_key, p_now)
      RETURNING id INTO trade_id;
    outcome := 'ok';
END $$;
"""
DROP = "DROP FUNCTION IF EXISTS markets_trade_place(bigint, bigint, text, text, text, timestamptz, boolean);"


class Migration(migrations.Migration):
    dependencies = [("markets", "0002_ledger_zero_sum_trigger")]
    operations = [run_on_postgresql(CREATE, DROP)]
