import json

import pytest

from lpp.lpp2.services import lpp2_contest_setup
from tests.lpp.lpp2_clients import Lpp2Client


@pytest.fixture
def contest(transactional_db):
    return lpp2_contest_setup(name="LPP2 test", secret="s3cret")


async def test_smoke(contest, live_daphne):
    for eio in (4, 3):
        judge = await Lpp2Client(live_daphne, "judge0", "s3cret", eio=eio).connect()
        await judge.send("control", {"status": "roundInformation"})
        print(await judge.next("roundInformation"))
        await judge.send("control", {"status": "register"}, secret="wrong")
        print(await judge.next("AuthError"))
        await judge.close()
