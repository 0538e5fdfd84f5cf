"""Team mode's preferences are each member's own, on SQLite and PostgreSQL: one member's
change leaves the others' and the local owner's as they were, a member who saved nothing has
the defaults, and a question a member's agent asks starts from that member's defaults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from choice.contract import Preferences, PreferencesPatch
from choice.contract.vocabulary import DEFAULT_TIMEOUT
from choice.store import Store
from choice.store.members import cut_off_member, record_sign_in, remove_member
from choice.store.preferences import load_preferences, save_preferences
from tests.integration.test_service import Portal, request
from tests.pg_cluster import chosen_database

pytestmark = pytest.mark.usefixtures("backend")

ANN, BOB = "m-ann", "m-bob"


@pytest.fixture
def store(isolated_env: Path) -> Iterator[Store]:
    isolated_env.mkdir(parents=True, exist_ok=True)
    opened = Store(chosen_database(isolated_env)).open()
    yield opened
    opened.close()


def test_a_members_change_is_theirs_alone(store: Store) -> None:
    engine = store.engine
    save_preferences(engine, PreferencesPatch(language="en", sound_volume=20))  # the owner's
    saved = save_preferences(engine, PreferencesPatch(language="zh", timeout_seconds=900), ANN)
    assert (saved.language, saved.timeout_seconds, saved.sound_volume) == ("zh", 900, 50)

    assert load_preferences(engine, BOB) == Preferences()  # nothing saved: the defaults
    owner = load_preferences(engine)
    assert (owner.language, owner.sound_volume, owner.timeout_seconds) == \
        ("en", 20, DEFAULT_TIMEOUT)

    save_preferences(engine, PreferencesPatch(language="en", sound=False), BOB)
    ann = load_preferences(engine, ANN)
    assert (ann.language, ann.timeout_seconds, ann.sound) == ("zh", 900, True)
    assert load_preferences(engine, BOB).language == "en"


def test_a_members_later_change_keeps_their_other_keys_and_can_clear_one(store: Store) -> None:
    engine = store.engine
    save_preferences(engine, PreferencesPatch(language="zh", single_submit=True), ANN)
    cleared = save_preferences(engine, PreferencesPatch(language=None), ANN)
    assert (cleared.language, cleared.single_submit) == (None, True)
    assert load_preferences(engine, ANN) == cleared


def test_an_admin_ending_access_keeps_them_and_removing_the_member_drops_them(
        store: Store) -> None:
    engine = store.engine
    ann = record_sign_in(store.repo, "ann", "ann@example.com", "Ann", False, 1.0)
    bob = record_sign_in(store.repo, "bob", "bob@example.com", "Bob", False, 1.0)
    for member in (ann, bob):
        save_preferences(engine, PreferencesPatch(language="zh"), member.id)
    assert cut_off_member(store.repo, ann.id) is not None
    assert record_sign_in(store.repo, "ann", "ann@example.com", "Ann", False, 2.0).id == ann.id
    assert load_preferences(engine, ann.id).language == "zh"  # as they were
    assert remove_member(store.repo, ann.id)
    assert load_preferences(engine, ann.id) == Preferences()
    assert load_preferences(engine, bob.id).language == "zh"


async def test_a_question_a_members_agent_asks_starts_from_that_members_defaults(
        isolated_env: Path) -> None:
    portal = Portal(isolated_env)
    service = await portal.start()
    try:
        await service.update_preferences(PreferencesPatch(timeout_seconds=1200), ANN)
        anns = (await service.create(request(), member_id=ANN)).row
        bobs = (await service.create(request(), member_id=BOB)).row
        owners = (await service.create(request())).row
        assert round(anns.expires_at - anns.created_at) == 1200
        assert round(bobs.expires_at - bobs.created_at) == DEFAULT_TIMEOUT
        assert round(owners.expires_at - owners.created_at) == DEFAULT_TIMEOUT
        assert (await service.preferences()).timeout_seconds == DEFAULT_TIMEOUT
    finally:
        await portal.stop()
