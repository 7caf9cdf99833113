"""Settings: round trip, validation, corrupt/old/newer files fall back with a message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gin3d import paths, settings
from gin3d.settings import Settings


def test_defaults_are_valid_and_documented_values():
    s = Settings()
    assert s.resolution == (1280, 720) and s.antialiasing == 4 and s.animation_speed == 1.0
    assert s.undo_enabled is False and s.hints_enabled is True
    assert s.opponent_level == "simple" and s.card_style == "classic"
    assert s.rules().name == "classic"


def test_round_trip(tmp_path):
    s = Settings(
        resolution=(1920, 1080),
        fullscreen=True,
        antialiasing=8,
        animation_speed=0,
        music_volume=0.25,
        ambience_volume=0.0,
        effects_volume=1.0,
        card_style="four_colour",
        felt="burgundy",
        card_back="harlequin",
        rules_preset="oklahoma",
        rules_overrides={"game_target": 200},
        player_name="Ada L.",
        undo_enabled=True,
        hints_enabled=False,
        opponent_level="expert",
        second_opponent_level="beginner",
    )
    path = settings.save(s, tmp_path / "cfg" / "settings.json")
    loaded = settings.load(path)
    assert loaded.settings == s and loaded.message is None
    assert loaded.settings.rules().game_target == 200
    assert loaded.settings.rules().knock_limit_from_upcard
    # the file is plain JSON with a format name and a version
    data = json.loads(path.read_text())
    assert data["format"] == "gin3d-settings" and data["version"] == settings.VERSION


def test_missing_file_gives_defaults_quietly(tmp_path):
    loaded = settings.load(tmp_path / "none.json")
    assert loaded.settings == Settings() and loaded.message is None


@pytest.mark.parametrize(
    "change, words",
    [
        ({"resolution": (100, 100)}, "resolution"),
        ({"resolution": (1280.0, 720)}, "resolution"),
        ({"antialiasing": 3}, "antialiasing"),
        ({"animation_speed": 3.5}, "animation_speed"),
        ({"animation_speed": float("nan")}, "animation_speed"),
        ({"music_volume": -0.1}, "music_volume"),
        ({"ambience_volume": "loud"}, "ambience_volume"),
        ({"felt": "plaid"}, "felt"),
        ({"card_back": None}, "card_back"),
        ({"effects_volume": True}, "effects_volume"),
        ({"card_style": "neon"}, "card_style"),
        ({"rules_preset": "hoyle"}, "rules_preset"),
        ({"rules_overrides": {"knock_limit": 99}}, "knock_limit"),
        ({"rules_overrides": {"no_such": 1}}, "no_such"),
        ({"player_name": ""}, "player_name"),
        ({"player_name": "x" * 25}, "player_name"),
        ({"player_name": "tab\there"}, "player_name"),
        ({"player_name": "   "}, "player_name"),
        ({"opponent_level": "godlike"}, "opponent_level"),
        ({"second_opponent_level": "godlike"}, "second_opponent_level"),
        ({"second_opponent_level": None}, "second_opponent_level"),
        ({"fullscreen": 1}, "fullscreen"),
        ({"colour": "red"}, "unknown setting"),
    ],
)
def test_bad_values_are_refused_by_name(change, words):
    with pytest.raises(ValueError, match=words):
        Settings().but(**change)


def test_rules_overrides_cannot_be_changed_through_the_dict():
    overrides = {"gin_bonus": 30}
    s = Settings(rules_overrides=overrides)
    overrides["gin_bonus"] = -5
    assert s.rules().gin_bonus == 30


@pytest.mark.parametrize(
    "content, words",
    [
        ("{ not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": "gin3d-settings", "version": 7, "settings": {}}', "newer gin3d"),
        ('{"format": "gin3d-settings", "version": "two"}', "known version"),
        ('{"format": "gin3d-settings", "version": 2, "settings": 5}', "no settings object"),
        ('{"something": "else"}', "known version"),
    ],
)
def test_corrupt_or_unknown_file_falls_back_to_defaults_with_a_message(tmp_path, content, words):
    path = tmp_path / "settings.json"
    path.write_text(content)
    loaded = settings.load(path)
    assert loaded.settings == Settings()
    assert words in loaded.message and "defaults" in loaded.message
    assert (tmp_path / "settings.json.bad").read_text() == content  # kept, not deleted
    # saving the defaults afterwards gives a good file again
    settings.save(loaded.settings, path)
    assert settings.load(path).message is None


def test_undecodable_bytes_fall_back(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"\xff\xfe\xfa")
    loaded = settings.load(path)
    assert loaded.settings == Settings() and "could not be read" in loaded.message


def test_a_bad_field_resets_only_that_field(tmp_path):
    path = tmp_path / "settings.json"
    good = Settings(player_name="Grace", card_style="large_index").to_dict()
    good.update(antialiasing=5, player_name="Grace", colour="red")
    path.write_text(json.dumps({"format": "gin3d-settings", "version": 2, "settings": good}))
    loaded = settings.load(path)
    assert loaded.settings.player_name == "Grace"
    assert loaded.settings.card_style == "large_index"
    assert loaded.settings.antialiasing == Settings().antialiasing
    assert "antialiasing" in loaded.message and "colour" in loaded.message


def test_version_1_file_is_migrated(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "width": 1600,
                "height": 900,
                "volume": 0.5,
                "multisamples": 2,
                "rules": "pagat",
                "player_name": "Old",
            }
        )
    )
    loaded = settings.load(path)
    s = loaded.settings
    assert s.resolution == (1600, 900) and s.music_volume == s.effects_volume == 0.5
    assert s.antialiasing == 2 and s.rules_preset == "pagat" and s.player_name == "Old"
    assert "older version" in loaded.message
    settings.save(s, path)
    assert json.loads(path.read_text())["version"] == settings.VERSION


def test_atomic_write_leaves_no_temporary_files(tmp_path):
    for i in range(5):
        settings.save(Settings(player_name=f"P{i}"), tmp_path / "settings.json")
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    assert settings.load(tmp_path / "settings.json").settings.player_name == "P4"


def test_platform_folders():
    env = {"HOME": "/home/ann"}
    assert paths.config_dir("linux", env) == Path("/home/ann/.config/gin3d")
    assert paths.data_dir("linux", env) == Path("/home/ann/.local/share/gin3d")
    xdg = {**env, "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/data"}
    assert paths.config_dir("linux", xdg) == Path("/cfg/gin3d")
    assert paths.data_dir("linux", xdg) == Path("/data/gin3d")
    win = {"USERPROFILE": "C:/Users/ann", "APPDATA": "C:/Users/ann/AppData/Roaming"}
    assert paths.config_dir("win32", win) == Path("C:/Users/ann/AppData/Roaming/gin3d")
    assert paths.data_dir("win32", win) == paths.config_dir("win32", win)
    mac = paths.config_dir("darwin", env)
    assert mac == Path("/home/ann/Library/Application Support/gin3d")
    assert paths.data_dir("darwin", env) == mac
    portable = {**env, "GIN3D_HOME": "/portable/gin3d"}
    for system in ("linux", "win32", "darwin"):
        assert paths.config_dir(system, portable) == Path("/portable/gin3d")
        assert paths.data_dir(system, portable) == Path("/portable/gin3d")


def test_gin3d_home_moves_every_file(tmp_path, monkeypatch):
    monkeypatch.setenv("GIN3D_HOME", str(tmp_path))
    settings.save(Settings(player_name="Home"))
    assert (tmp_path / "settings.json").exists()
    assert settings.load().settings.player_name == "Home"
    for f in (paths.settings_path, paths.save_path, paths.stats_path, paths.history_path):
        assert f().parent == tmp_path


def test_the_relay_flag_wins_over_the_settings_service_and_the_name_likewise():
    """``gin3d --relay H:P`` stays an override of Settings > Online service; without it the
    settings' service is used, and with neither the game is LAN and direct only."""
    from gin3d.__main__ import net_fields

    user = Settings(online_service="127.0.0.1:47471", player_name="Ann")
    given = net_fields({"relay": "127.0.0.1:5000", "name": "Bo"}, user)
    assert (given["relay"], given["name"]) == ("127.0.0.1:5000", "Bo")
    kept = net_fields({}, user)
    assert (kept["relay"], kept["name"]) == ("127.0.0.1:47471", "Ann")
    assert net_fields(None, Settings())["relay"] is None
    with pytest.raises(ValueError, match="port number"):
        net_fields({"relay": "127.0.0.1:99999"}, user)


def test_old_sound_volume_becomes_the_music_volume(tmp_path):
    """A file from before the music (its ``sound_volume`` was kept for it) loads without a
    message, that volume now the music's; the other new settings take their defaults."""
    path = tmp_path / "settings.json"
    old = {"sound_volume": 0.25, "effects_volume": 0.5, "player_name": "Old"}
    path.write_text(json.dumps({"format": "gin3d-settings", "version": 2, "settings": old}))
    loaded = settings.load(path)
    s = loaded.settings
    assert loaded.message is None
    assert s.music_volume == 0.25 and s.effects_volume == 0.5 and s.player_name == "Old"
    assert s.ambience_volume == Settings().ambience_volume
    assert (s.felt, s.card_back) == ("green", "blue")
    settings.save(s, path)
    saved = json.loads(path.read_text())["settings"]
    assert "sound_volume" not in saved and saved["music_volume"] == 0.25
    # a file holding both names keeps the new one's value
    both = {"sound_volume": 0.25, "music_volume": 0.75}
    path.write_text(json.dumps({"format": "gin3d-settings", "version": 2, "settings": both}))
    assert settings.load(path).settings.music_volume == 0.75


@pytest.mark.parametrize(
    "key, bad",
    [
        ("felt", "purple"),
        ("card_back", "back_blue"),
        ("music_volume", 1.5),
        ("ambience_volume", -0.25),
        ("ambience_volume", True),
    ],
)
def test_bad_look_or_volume_is_reset_alone(tmp_path, key, bad):
    path = tmp_path / "settings.json"
    good = {"felt": "charcoal", "card_back": "red", "music_volume": 0.75, "ambience_volume": 0.25}
    data = {**good, key: bad}
    path.write_text(json.dumps({"format": "gin3d-settings", "version": 2, "settings": data}))
    loaded = settings.load(path)
    assert key in loaded.message
    assert getattr(loaded.settings, key) == getattr(Settings(), key)
    for other, value in good.items():
        if other != key:
            assert getattr(loaded.settings, other) == value
