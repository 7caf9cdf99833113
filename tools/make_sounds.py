"""Synthesise the game's sound effects into sounds/ (44.1 kHz, 16-bit mono WAV).

    python -m tools.make_sounds [--out sounds]

Every sound is made from numpy noise and oscillators with fixed RNG seeds, so the output is
bit-for-bit reproducible. Peaks are normalised to -1 dBFS with short fades at both ends.
"""

from __future__ import annotations

import argparse
import os
import wave

import numpy as np

SR = 44100
PEAK = 10 ** (-1.0 / 20)  # -1 dBFS


def _t(dur: float) -> np.ndarray:
    return np.arange(int(round(dur * SR))) / SR


def band_noise(rng, dur, lo, hi, tilt=0.0) -> np.ndarray:
    """White noise band-limited in the frequency domain (soft edges)."""
    n = int(round(dur * SR))
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / SR)
    g = 1 / (1 + (lo / np.maximum(f, 1)) ** 4) / (1 + (f / hi) ** 4)
    if tilt:
        g = g * (np.maximum(f, 20) / 1000.0) ** tilt
    out = np.fft.irfft(spec * g, n)
    return out / (np.abs(out).max() + 1e-12)


def place(buf: np.ndarray, snd: np.ndarray, at: float, gain: float = 1.0) -> None:
    i = int(round(at * SR))
    j = min(len(buf), i + len(snd))
    buf[i:j] += gain * snd[: j - i]


def damped(freq, dur, decay, phase=0.0) -> np.ndarray:
    t = _t(dur)
    return np.sin(2 * np.pi * freq * t + phase) * np.exp(-t / decay)


def bell(freq, dur, decay=0.5, bright=1.0) -> np.ndarray:
    t = _t(dur)
    out = np.zeros_like(t)
    for mult, amp, dmul in (
        (1.0, 1.0, 1.0),
        (2.0, 0.5 * bright, 0.6),
        (3.01, 0.25 * bright, 0.4),
        (4.17, 0.18 * bright, 0.25),
        (5.43, 0.1 * bright, 0.15),
    ):
        out += amp * np.sin(2 * np.pi * freq * mult * t) * np.exp(-t / (decay * dmul))
    return out * (1 - np.exp(-t / 0.002))


def pluck(freq, dur, decay=0.35) -> np.ndarray:
    t = _t(dur)
    out = np.zeros_like(t)
    for k, amp in ((1, 1.0), (2, 0.35), (3, 0.12), (4, 0.06)):
        out += amp * np.sin(2 * np.pi * freq * k * t) * np.exp(-t * k / decay)
    return out * (1 - np.exp(-t / 0.004))


def brass(freq, dur, attack=0.04, release=0.12) -> np.ndarray:
    t = _t(dur)
    vib = 1 + 0.004 * np.sin(2 * np.pi * 5.5 * t) * np.clip((t - 0.15) * 4, 0, 1)
    phase = 2 * np.pi * freq * np.cumsum(vib) / SR
    out = np.zeros_like(t)
    for k in range(1, 9):
        out += np.sin(k * phase) / k**1.3
    env = np.clip(t / attack, 0, 1) * np.clip((dur - t) / release, 0, 1)
    return out * env


def click_burst(rng, dur=0.004, lo=1500, hi=9000) -> np.ndarray:
    n = band_noise(rng, dur + 0.002, lo, hi)
    t = _t(dur + 0.002)
    return n * np.exp(-t / (dur / 3))


def finish(x: np.ndarray, fade_in=0.003, fade_out=0.012) -> np.ndarray:
    x = x - x.mean()
    n_in, n_out = int(fade_in * SR), int(fade_out * SR)
    x[:n_in] *= np.linspace(0, 1, n_in) ** 2
    x[len(x) - n_out :] *= np.linspace(1, 0, n_out) ** 2
    return x * (PEAK / (np.abs(x).max() + 1e-12))


NOTE = {
    "C4": 261.63,
    "Eb4": 311.13,
    "E4": 329.63,
    "G4": 392.0,
    "Ab4": 415.3,
    "C5": 523.25,
    "D5": 587.33,
    "Eb5": 622.25,
    "E5": 659.26,
    "G5": 783.99,
    "C6": 1046.5,
    "E6": 1318.5,
    "G6": 1568.0,
    "C7": 2093.0,
}


def s_shuffle():
    rng = np.random.default_rng(101)
    dur = 0.95
    buf = np.zeros(len(_t(dur)))
    # riffle: clicks accelerate then thin out as the two halves interleave
    n = 52
    u = np.linspace(0, 1, n)
    times = 0.04 + 0.62 * (u + 0.25 * np.sin(np.pi * u) * (1 - u))
    times += rng.normal(0, 0.003, n)
    for i, at in enumerate(np.sort(times)):
        g = 0.35 + 0.65 * rng.random() * (1 - 0.4 * i / n)
        place(buf, click_burst(rng, 0.003 + 0.003 * rng.random(), 1200, 8000), at, g)
    whoosh = band_noise(rng, dur, 1500, 7000)
    t = _t(dur)
    env = np.clip(t / 0.05, 0, 1) * np.exp(-np.clip(t - 0.1, 0, None) / 0.35) * (t < 0.72)
    buf += 0.12 * whoosh * env
    # cards squared up: a soft low tap at the end
    tap = band_noise(rng, 0.08, 80, 900) * np.exp(-_t(0.08) / 0.015)
    place(buf, tap, 0.8, 0.9)
    return finish(buf)


def _slide(rng, dur, lo, hi, peak_at):
    t = _t(dur)
    env = np.where(t < peak_at, t / peak_at, np.exp(-(t - peak_at) / (dur * 0.25)))
    return band_noise(rng, dur, lo, hi) * env


def s_deal():
    rng = np.random.default_rng(202)
    buf = np.zeros(len(_t(0.26)))
    place(buf, _slide(rng, 0.17, 1800, 9000, 0.06), 0.0, 0.6)
    place(buf, click_burst(rng, 0.006, 500, 6000), 0.15, 1.0)
    place(buf, damped(240, 0.05, 0.012), 0.15, 0.6)
    return finish(buf)


def s_draw():
    rng = np.random.default_rng(303)
    buf = np.zeros(len(_t(0.22)))
    place(buf, _slide(rng, 0.2, 900, 6000, 0.08), 0.0, 1.0)
    place(buf, click_burst(rng, 0.004, 800, 5000), 0.02, 0.5)
    return finish(buf)


def s_place():
    rng = np.random.default_rng(404)
    buf = np.zeros(len(_t(0.2)))
    slap = band_noise(rng, 0.06, 200, 5000) * np.exp(-_t(0.06) / 0.008)
    place(buf, slap, 0.0, 1.0)
    place(buf, damped(170, 0.15, 0.025), 0.0, 0.55)
    place(buf, _slide(rng, 0.05, 2000, 8000, 0.005), 0.004, 0.15)
    return finish(buf)


def s_flip():
    rng = np.random.default_rng(505)
    dur = 0.16
    t = _t(dur)
    n = band_noise(rng, dur, 1200, 7000)
    env = np.sin(np.pi * np.clip(t / 0.09, 0, 1)) ** 2
    buf = n * env * (0.6 + 0.4 * np.sin(2 * np.pi * 45 * t))  # flutter of the card
    place(buf, click_burst(rng, 0.005, 700, 6000), 0.095, 0.9)
    return finish(buf)


def s_knock():
    rng = np.random.default_rng(606)
    buf = np.zeros(len(_t(0.5)))
    for at, g in ((0.0, 1.0), (0.17, 0.85)):
        thump = (
            damped(118, 0.25, 0.05)
            + 0.6 * damped(205, 0.25, 0.03, 0.4)
            + 0.35 * damped(430, 0.25, 0.015, 1.0)
            + 0.25 * damped(900, 0.25, 0.006)
        )
        hit = band_noise(rng, 0.03, 200, 3000) * np.exp(-_t(0.03) / 0.004)
        place(buf, thump, at, g)
        place(buf, hit, at, 0.5 * g)
    return finish(buf, fade_out=0.03)


def s_gin():
    buf = np.zeros(len(_t(1.3)))
    for i, nm in enumerate(("C6", "E6", "G6", "C7")):
        place(buf, bell(NOTE[nm], 1.3 - i * 0.07, 0.45, 1.0), i * 0.07, 1.0 - 0.08 * i)
    place(buf, bell(NOTE["C6"] / 2, 1.0, 0.5, 0.5), 0.28, 0.5)
    return finish(buf, fade_out=0.08)


def s_click():
    rng = np.random.default_rng(808)
    t = _t(0.045)
    buf = 0.7 * np.sin(2 * np.pi * 1900 * t) * np.exp(-t / 0.006)
    buf += 0.5 * np.sin(2 * np.pi * 3400 * t) * np.exp(-t / 0.003)
    place(buf, click_burst(rng, 0.002, 2000, 10000), 0.0, 0.4)
    return finish(buf, fade_in=0.0005, fade_out=0.008)


def s_hand_won():
    buf = np.zeros(len(_t(1.0)))
    for i, nm in enumerate(("C5", "E5", "G5", "C6")):
        place(buf, pluck(NOTE[nm], 1.0 - i * 0.09, 0.5), i * 0.09, 1.0)
    place(buf, pluck(NOTE["E5"], 0.6, 0.5) + pluck(NOTE["G5"], 0.6, 0.5), 0.36, 0.5)
    return finish(buf, fade_out=0.1)


def s_hand_lost():
    buf = np.zeros(len(_t(1.1)))
    for i, nm in enumerate(("G4", "Eb4", "C4")):
        f = NOTE[nm]
        t = _t(1.1 - i * 0.2)
        tone = pluck(f, len(t) / SR, 0.7) * (1 + 0.1 * np.sin(2 * np.pi * 4 * t))
        place(buf, tone, i * 0.2, 1.0)
    return finish(buf, fade_out=0.15)


def s_game_won():
    buf = np.zeros(len(_t(2.5)))
    seq = [
        ("G4", 0.0, 0.14),
        ("C5", 0.15, 0.14),
        ("E5", 0.3, 0.14),
        ("G5", 0.45, 0.3),
        ("E5", 0.78, 0.14),
        ("G5", 0.93, 0.14),
    ]
    for nm, at, d in seq:
        place(buf, brass(NOTE[nm], d), at, 0.8)
    for nm in ("C5", "E5", "G5", "C6"):
        place(buf, brass(NOTE[nm], 1.35, attack=0.05, release=0.5), 1.1, 0.45)
    for i, nm in enumerate(("C6", "E6", "G6", "C7")):
        place(buf, bell(NOTE[nm], 1.2, 0.5, 0.8), 1.1 + 0.05 * i, 0.22)
    return finish(buf, fade_out=0.2)


SOUNDS = {
    "shuffle": s_shuffle,
    "deal": s_deal,
    "draw": s_draw,
    "place": s_place,
    "flip": s_flip,
    "knock": s_knock,
    "gin": s_gin,
    "click": s_click,
    "hand_won": s_hand_won,
    "hand_lost": s_hand_lost,
    "game_won": s_game_won,
}


def write_wav(path: str, x: np.ndarray, rate: int = SR) -> None:
    pcm = np.round(np.clip(x, -1, 1) * 32767).astype("<i2")
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


def write_all(doc: str, makers: dict, rate: int, argv=None) -> None:
    """The tools' command line: each of ``makers`` (name -> samples) as ``<out>/<name>.wav``."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--out", default="sounds")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for name, fn in makers.items():
        x = fn()
        write_wav(os.path.join(args.out, name + ".wav"), x, rate)
        rms = 20 * np.log10(np.sqrt(np.mean(x * x)) + 1e-12)
        print(f"wrote {name}.wav  {len(x) / rate:.2f} s  rms {rms:.1f} dBFS")


def main(argv=None) -> None:
    write_all(__doc__, SOUNDS, SR, argv)


if __name__ == "__main__":
    main()
