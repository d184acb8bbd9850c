"""Accounts resist abuse: sign-up's password rules, sign-ups and failed log-ins limited per address and per
account with a lockout that ends, and no answer that tells whether a username has an account."""

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.conftest import make_user

pytestmark = pytest.mark.django_db
User = get_user_model()


def signup(client, username, password):
    return client.post(
        "/entrant/signup/", {"username": username, "password1": password, "password2": password, "about": ""}
    )


def errors(response) -> str:
    """The form's error messages, as the page shows them."""
    return " ".join(re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', response.content.decode(), re.S))


def login(password, username="ada", address="10.1.1.1", path="/accounts/login/"):
    return Client(REMOTE_ADDR=address).post(path, {"username": username, "password": password})


@pytest.mark.parametrize(
    "password, why",
    [
        ("password", "too common"),
        ("12345678", "too common"),
        ("1234567890123", "entirely numeric"),
        ("mallory-the-great", "too similar to the username"),
        ("        ", "different characters"),
        ("xyxyxyxyxyxy", "different characters"),
        ("short-1", "too short"),
    ],
)
def test_signup_refuses_a_weak_password_and_says_why(password, why):
    answer = signup(Client(), "mallory-the-great", password)
    assert answer.status_code == 200 and why in errors(answer).replace("&#x27;", "'")
    assert not User.objects.filter(username="mallory-the-great").exists()


def test_signup_answers_a_taken_username_as_it_answers_a_reserved_one(settings):
    make_user("jude")
    taken = errors(signup(Client(REMOTE_ADDR="10.2.0.1"), "JUDE", "a-long-passphrase"))
    reserved = errors(signup(Client(REMOTE_ADDR="10.2.0.2"), "admin", "a-long-passphrase"))
    assert taken == reserved and "not available" in taken
    assert "exists" not in taken


def test_sign_ups_from_one_address_are_limited_and_another_address_may_still_sign_up(settings):
    settings.ARENA_SIGNUP_PER_ADDRESS = 3
    answers = [signup(Client(REMOTE_ADDR="10.3.0.1"), f"flood{i}", "a-long-passphrase") for i in range(40)]
    assert [a.status_code for a in answers[:3]] == [302, 302, 302]
    assert User.objects.filter(username__startswith="flood").count() == 3
    assert all("Too many sign-ups from your address" in errors(a) for a in answers[3:])
    assert signup(Client(REMOTE_ADDR="10.3.0.2"), "elsewhere", "a-long-passphrase").status_code == 302
    past_it = errors(signup(Client(REMOTE_ADDR="10.3.0.1"), "flood0", "a-long-passphrase"))
    assert "Too many sign-ups" in past_it and "not available" not in past_it  # a refused attempt is not read


def test_failed_logins_lock_the_account_out_until_the_window_ends(settings):
    settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT = 5
    settings.ARENA_LOGIN_LOCKOUT_S = 2
    make_user("ada")  # password "ada-pw" (tests.conftest.make_user)
    answers = [login("wrong", address=f"10.4.0.{i}") for i in range(40)]  # from many addresses
    assert all(a.status_code == 200 for a in answers)
    assert "Too many failed log-ins" not in errors(answers[4]) and "Too many failed log-ins" in errors(answers[5])
    locked = login("ada-pw", address="10.4.1.1")
    assert locked.status_code == 200 and "Too many failed log-ins" in errors(locked)  # even the right password
    time.sleep(2.2)  # the lockout's window ends
    assert login("ada-pw", address="10.4.1.1").status_code == 302


def test_failed_logins_from_one_address_lock_that_address_out_for_every_username(settings):
    settings.ARENA_LOGIN_FAILURES_PER_ADDRESS = 6
    make_user("ada")
    for i in range(6):
        login("wrong", username=f"guess{i}", address="10.5.0.1")
    assert "Too many failed log-ins" in errors(login("ada-pw", address="10.5.0.1"))
    assert login("ada-pw", address="10.5.0.2").status_code == 302  # another address logs in


def test_the_admin_login_is_locked_out_the_same_way(settings):
    settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT = 3
    make_user("root", staff=True)
    for _ in range(3):
        login("wrong", username="root", path="/admin/login/")
    answer = login("root-pw", username="root", path="/admin/login/")
    assert answer.status_code == 200 and "Too many failed log-ins" in answer.content.decode()


def test_a_lockout_says_nothing_about_whether_the_account_exists(settings):
    settings.ARENA_LOGIN_FAILURES_PER_ACCOUNT = 3
    make_user("ada")
    for name in ("ada", "nobody-has-this-name"):
        for i in range(4):
            last = login("wrong", username=name, address=f"10.6.{len(name)}.{i}")
        assert "Too many failed log-ins" in errors(last)
    assert errors(login("x", username="ada", address="10.6.9.1")) == errors(
        login("x", username="nobody-has-this-name", address="10.6.9.2")
    )
