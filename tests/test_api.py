"""The public API is what `forge.__all__` lists; changing it is a decision, so it is pinned."""
import forge


def test_public_api_is_pinned():
    assert sorted(forge.__all__) == sorted([
        "Card", "Finding", "FindingsError", "ForgeError", "Game", "Operation", "UsageError",
        "card_records", "check_game", "load_game", "load_yaml"])
    for name in forge.__all__:
        assert hasattr(forge, name)
