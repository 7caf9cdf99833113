"""Synthesise the background music and the table's ambience into sounds/ (22.05 kHz mono WAV).

    python -m tools.make_music [--out sounds]

``music.wav``: a calm lounge piece, 24 bars at 84 beats a minute (about 69 s): electric piano
chords, a walking bass, a soft vibraphone tune and brushed drums. ``ambience.wav``: 32 s of a
card room (room tone, a distant murmur of voices, now and then a chip or a glass).

Both are loops: every note, echo and noise is written round the end of the buffer back to its
start (the reverb is a circular convolution, the noise is made in the frequency domain), so the
last sample runs on into the first with no seam and the game simply repeats the file. Fixed
RNG seeds: the output is the same on every run. Mono at 22.05 kHz keeps the committed files
small (about 3 MB and 1.4 MB): background sound, played quietly under the card sounds.
"""

from __future__ import annotations

import numpy as np

from .make_sounds import write_all

SR = 22050
BPM = 84
BEAT = SR * 60 // BPM  # 15750 samples: a whole number, so the loop is exactly 24 bars
BAR = 4 * BEAT
SWING = 2 / 3  # the off-beat eighth falls two thirds through the beat
PEAK = 10 ** (-3.0 / 20)  # -3 dBFS
A4 = 440.0

# chords as (root, intervals above it in semitones, the bass's approach note next bar)
# in F major: A (twice, the second ending on the tonic) and a bridge
CHORDS = {
    "Fmaj9": (53, (4, 7, 11, 14)),
    "Dm9": (50, (3, 7, 10, 14)),
    "Gm9": (55, (3, 7, 10, 14)),
    "C13": (48, (4, 10, 14, 21)),
    "Am7": (57, (3, 7, 10, 14)),
    "D7b9": (50, (4, 10, 13, 19)),
    "Gm7": (55, (3, 7, 10, 15)),
    "C9sus": (48, (5, 10, 14, 19)),
    "Bbmaj7": (58, (4, 7, 11, 14)),
    "Eb9": (51, (4, 10, 14, 19)),
    "D7": (50, (4, 10, 14, 18)),
    "C7": (48, (4, 10, 14, 16)),
}
FORM = (
    # A
    "Fmaj9 Dm9 Gm9 C13 Am7 D7b9 Gm9 C13 "
    # A'
    "Fmaj9 Dm9 Gm9 C13 Am7 D7b9 Gm7 C9sus "
    # B (the bridge), back to A at the loop
    "Bbmaj7 Eb9 Am7 D7 Gm9 C13 Fmaj9 C9sus"
).split()
SCALE = (0, 2, 4, 5, 7, 9, 11)  # F major, from F


def hz(midi: float) -> float:
    return A4 * 2 ** ((midi - 69) / 12)


def _t(n: int) -> np.ndarray:
    return np.arange(n) / SR


def add_loop(buf: np.ndarray, snd: np.ndarray, at: int, gain: float = 1.0) -> None:
    """Add ``snd`` into the loop ``buf`` from sample ``at`` on, wrapping round its end."""
    n = len(buf)
    at %= n
    head = min(len(snd), n - at)
    buf[at : at + head] += gain * snd[:head]
    rest = snd[head:]
    while len(rest):
        k = min(len(rest), n)
        buf[:k] += gain * rest[:k]
        rest = rest[k:]


def circular_filter(x: np.ndarray, lo: float = 0.0, hi: float = 0.0) -> np.ndarray:
    """A soft band filter in the frequency domain (circular: a loop stays a loop)."""
    spec = np.fft.rfft(x)
    f = np.fft.rfftfreq(len(x), 1 / SR)
    g = np.ones_like(f)
    if lo:
        g /= 1 + (lo / np.maximum(f, 1)) ** 4
    if hi:
        g /= 1 + (f / hi) ** 4
    return np.fft.irfft(spec * g, len(x))


def reverb(x: np.ndarray, rng, seconds: float, mix: float, bright: float = 5000.0) -> np.ndarray:
    """A small room: ``x`` convolved, round the loop, with a decaying noise tail."""
    n = int(seconds * SR)
    t = _t(n)
    tail = rng.standard_normal(n) * np.exp(-t / (seconds / 6.9))  # -60 dB at the end
    tail[: int(0.012 * SR)] = 0  # the first reflections come a little late
    tail = circular_filter(np.pad(tail, (0, len(x) - n)), hi=bright)
    wet = np.fft.irfft(np.fft.rfft(x) * np.fft.rfft(tail), len(x))
    wet *= np.sqrt(np.mean(x * x)) / (np.sqrt(np.mean(wet * wet)) + 1e-12)
    return x + mix * wet


# -- instruments ------------------------------------------------------------------------------
def e_piano(freq: float, n: int, vel: float) -> np.ndarray:
    """A Rhodes-like tine: two-operator FM, its brightness fading faster than its tone."""
    t = _t(n)
    index = 1.6 * vel * np.exp(-t / 0.35)
    tone = np.sin(2 * np.pi * freq * t + index * np.sin(2 * np.pi * freq * t))
    tone += 0.12 * np.sin(2 * np.pi * 14.0 * freq * t) * np.exp(-t / 0.02)  # the tine's tick
    env = np.exp(-t / 1.6) * (1 - np.exp(-t / 0.004))
    release = np.clip((n - np.arange(n)) / (0.08 * SR), 0, 1)
    return vel * tone * env * release


def bass(freq: float, n: int, vel: float) -> np.ndarray:
    """An upright bass, plucked: a warm fundamental, a little second and third harmonic."""
    t = _t(n)
    tone = (
        np.sin(2 * np.pi * freq * t)
        + 0.35 * np.sin(4 * np.pi * freq * t) * np.exp(-t / 0.25)
        + 0.12 * np.sin(6 * np.pi * freq * t) * np.exp(-t / 0.12)
    )
    env = np.exp(-t / 0.9) * (1 - np.exp(-t / 0.006))
    release = np.clip((n - np.arange(n)) / (0.05 * SR), 0, 1)
    return vel * tone * env * release


def vibraphone(freq: float, n: int, vel: float) -> np.ndarray:
    """A soft-mallet vibraphone with its motor's slow tremolo."""
    t = _t(n)
    tone = np.sin(2 * np.pi * freq * t) + 0.18 * np.sin(2 * np.pi * 3.9 * freq * t) * np.exp(
        -t / 0.15
    )
    tremolo = 1 - 0.25 * (1 - np.cos(2 * np.pi * 5.2 * t)) / 2
    env = np.exp(-t / 1.3) * (1 - np.exp(-t / 0.003))
    release = np.clip((n - np.arange(n)) / (0.12 * SR), 0, 1)
    return vel * tone * tremolo * env * release


def brush(rng, n: int, vel: float, sweep: bool) -> np.ndarray:
    """A brush on the snare: a soft slap, or (``sweep``) a long swish."""
    noise = circular_filter(rng.standard_normal(n), lo=1800, hi=7000)
    noise /= np.abs(noise).max() + 1e-12
    t = _t(n)
    if sweep:
        env = np.sin(np.pi * np.clip(t / (n / SR), 0, 1)) ** 2
    else:
        env = np.exp(-t / 0.07) * (1 - np.exp(-t / 0.002))
    return vel * noise * env


def ride(rng, n: int, vel: float) -> np.ndarray:
    """A soft ride-cymbal tap: high noise with a faint ping."""
    t = _t(n)
    noise = circular_filter(rng.standard_normal(n), lo=5000, hi=10000)
    noise /= np.abs(noise).max() + 1e-12
    ping = np.sin(2 * np.pi * 3150 * t) * 0.3
    return vel * (noise + ping) * np.exp(-t / 0.35) * (1 - np.exp(-t / 0.001))


def kick(n: int, vel: float) -> np.ndarray:
    """A feathered bass drum: felt more than heard."""
    t = _t(n)
    freq = 55 + 40 * np.exp(-t / 0.03)
    return vel * np.sin(2 * np.pi * np.cumsum(freq) / SR) * np.exp(-t / 0.18)


# -- the parts --------------------------------------------------------------------------------
def voicing(name: str) -> list[int]:
    """The chord's upper notes as the piano plays them, close around middle C."""
    root, ivs = CHORDS[name]
    notes = sorted(root + i for i in ivs)
    return [m + 12 if m < 57 else m for m in notes]


def swung(beat: float) -> int:
    """A beat position (0, 0.5, 1, ...) as a sample offset, the off-beats swung."""
    whole = int(beat)
    return int(whole * BEAT + (beat - whole > 0) * SWING * BEAT)


def piano_part(buf: np.ndarray, rng) -> None:
    comps = ((0.0, 1.5), (1.5, 2.0), (0.0, 2.5), (0.5, 1.0, 2.5), (0.0, 3.0))
    for bar, name in enumerate(FORM):
        hits = comps[rng.integers(len(comps))]
        for k, beat in enumerate(hits):
            nxt = hits[k + 1] if k + 1 < len(hits) else 4.0
            n = swung(nxt) - swung(beat) + int(0.05 * SR)
            vel = 0.55 if beat == 0 else 0.42
            for j, m in enumerate(voicing(name)):
                roll = int(j * 0.012 * SR)  # the hand rolls the chord a little
                note = e_piano(hz(m), n, vel * rng.uniform(0.85, 1.0))
                add_loop(buf, note, bar * BAR + swung(beat) + roll)


def bass_part(buf: np.ndarray, rng) -> None:
    """A walking line: the root on one, chord tones between, a step into the next root."""
    for bar, name in enumerate(FORM):
        root, ivs = CHORDS[name]
        nxt_root = CHORDS[FORM[(bar + 1) % len(FORM)]][0]
        low = root - 12 if root >= 48 else root
        third = low + ivs[0]
        fifth = low + 7 if 7 in ivs else low + ivs[1]
        approach = (nxt_root - 12 if nxt_root >= 48 else nxt_root) + rng.choice((-1, 1))
        line = (
            [low, third, fifth, approach] if rng.random() < 0.6 else [low, fifth, third, approach]
        )
        for beat, m in enumerate(line):
            vel = 0.95 if beat == 0 else 0.8
            add_loop(buf, bass(hz(m), BEAT, vel * rng.uniform(0.9, 1.0)), bar * BAR + beat * BEAT)


def melody_part(buf: np.ndarray, rng) -> None:
    """A tune in two-bar phrases: chord tones on the strong beats, scale steps between, a
    rest at the end of most phrases so it breathes."""
    rhythms = (
        ((0.0, 1.5), (1.5, 1.0), (2.5, 1.5)),
        ((0.5, 1.0), (1.5, 0.5), (2.0, 2.0)),
        ((0.0, 3.0),),
        ((1.0, 1.0), (2.0, 0.5), (2.5, 1.5)),
        ((0.0, 0.5), (0.5, 0.5), (1.0, 2.0)),
    )
    scale = sorted({60 + 5 + s + 12 * o for s in SCALE for o in (-1, 0, 1)})
    scale = [m for m in scale if 67 <= m <= 86]
    pitch = 77  # F5
    for bar, name in enumerate(FORM):
        if bar % 8 == 7 and rng.random() < 0.8:
            continue  # breathe at the end of each eight bars
        root, ivs = CHORDS[name]
        chord = {(root + i) % 12 for i in (0, *ivs)}
        for beat, length in rhythms[rng.integers(len(rhythms))]:
            strong = beat in (0.0, 2.0)
            near = [m for m in scale if abs(m - pitch) <= 4 and m != pitch] or scale
            if strong:
                tones = [m for m in near if m % 12 in chord] or near
            else:
                tones = near
            pitch = int(rng.choice(tones))
            n = int(length * BEAT) + int(0.3 * SR)
            vel = 0.5 if strong else 0.4
            add_loop(buf, vibraphone(hz(pitch), n, vel), bar * BAR + swung(beat))


def drum_part(buf: np.ndarray, rng) -> None:
    for bar in range(len(FORM)):
        start = bar * BAR
        for beat in range(4):
            at = start + beat * BEAT
            # a swish through each pair of beats, a slap on two and four
            if beat % 2 == 0:
                add_loop(buf, brush(rng, 2 * BEAT, 0.10, sweep=True), at)
            else:
                add_loop(buf, brush(rng, int(0.3 * SR), 0.32, sweep=False), at)
            add_loop(buf, ride(rng, int(0.8 * SR), 0.10), at)
            if beat in (1, 3):  # the ride's skip note, swung
                add_loop(buf, ride(rng, int(0.5 * SR), 0.06), at - BEAT + swung(0.5))
            if beat in (0, 2):
                add_loop(buf, kick(int(0.4 * SR), 0.35), at)


def music() -> np.ndarray:
    n = len(FORM) * BAR
    rng = np.random.default_rng(8400)
    parts = {}
    for name, fn, gain in (
        # balanced by ear's rule of thumb: the tune a little over the chords, the bass under
        # them (its low notes carry more energy than they sound), the brushes quietest
        ("piano", piano_part, 0.24),
        ("bass", bass_part, 0.30),
        ("melody", melody_part, 0.55),
        ("drums", drum_part, 0.75),
    ):
        part = np.zeros(n)
        fn(part, rng)
        parts[name] = gain * part
    mix = parts["piano"] + parts["melody"]
    mix = reverb(mix, rng, 1.8, 0.35) + parts["bass"] + reverb(parts["drums"], rng, 1.2, 0.25)
    mix = circular_filter(mix, lo=35, hi=7500)
    return mix * (PEAK / (np.abs(mix).max() + 1e-12))


# -- the ambience -----------------------------------------------------------------------------
AMBIENCE_S = 32


def babble(rng, n: int, voices: int = 9) -> np.ndarray:
    """Distant conversation: noise through vowel-like bands, each voice's loudness following
    syllables (3-6 a second) in phrases, with pauses."""
    out = np.zeros(n)
    t = _t(n)
    for _ in range(voices):
        f1, f2 = rng.uniform(300, 800), rng.uniform(900, 2200)
        voice = circular_filter(rng.standard_normal(n), lo=f1, hi=f2)
        syllables = 0.5 + 0.5 * np.sin(2 * np.pi * rng.uniform(3, 6) * t + rng.uniform(0, 6))
        # phrases: a slow loudness round the loop (whole cycles: it joins up)
        cycles = rng.integers(3, 9)
        phrase = np.clip(np.sin(2 * np.pi * cycles * t / (n / SR) + rng.uniform(0, 6)), 0, 1)
        out += voice * syllables * phrase * rng.uniform(0.5, 1.0)
    return circular_filter(out, lo=150, hi=1800)  # far away: the highs are lost


def chip_clack(rng) -> np.ndarray:
    """Two clay chips knocking: a short bright click with a hollow ring."""
    n = int(0.12 * SR)
    t = _t(n)
    ring = sum(
        np.sin(2 * np.pi * f * t) * np.exp(-t / d)
        for f, d in ((rng.uniform(2600, 3400), 0.012), (rng.uniform(4200, 5200), 0.008))
    )
    click = rng.standard_normal(n) * np.exp(-t / 0.002)
    return 0.6 * ring + 0.4 * click


def glass_clink(rng) -> np.ndarray:
    """Two glasses touching: inharmonic partials ringing for a second."""
    n = int(1.2 * SR)
    t = _t(n)
    base = rng.uniform(1900, 2600)
    tone = sum(
        a * np.sin(2 * np.pi * base * m * t) * np.exp(-t / d)
        for m, a, d in ((1.0, 1.0, 0.35), (2.32, 0.5, 0.22), (4.25, 0.3, 0.12), (6.9, 0.15, 0.06))
    )
    return tone * (1 - np.exp(-t / 0.0008))


def ambience() -> np.ndarray:
    n = AMBIENCE_S * SR
    rng = np.random.default_rng(3200)
    # room tone: a soft low rumble (made in the frequency domain: it loops by itself)
    spec = rng.standard_normal(n // 2 + 1) + 1j * rng.standard_normal(n // 2 + 1)
    f = np.fft.rfftfreq(n, 1 / SR)
    spec *= 1 / np.maximum(f, 20) / (1 + (f / 600) ** 2)
    room = np.fft.irfft(spec, n)
    room /= np.abs(room).max() + 1e-12
    mix = 0.35 * room + 0.5 * babble(rng, n) / 4
    events = np.zeros(n)
    for k in range(7):  # chips now and then, once in a while a glass
        at = int((k + rng.uniform(0.1, 0.8)) * n / 7)
        if k in (2, 5):
            add_loop(events, glass_clink(rng), at, rng.uniform(0.05, 0.08))
        else:
            for j in range(rng.integers(1, 4)):  # a stack set down: a few clacks
                add_loop(events, chip_clack(rng), at + int(j * rng.uniform(0.05, 0.12) * SR), 0.1)
    mix = mix + reverb(events, rng, 1.4, 0.6, bright=6000)
    mix = circular_filter(mix, lo=25)
    return mix * (0.35 / (np.abs(mix).max() + 1e-12))  # quiet by nature: a room, not a show


TRACKS = {"music": music, "ambience": ambience}


def main(argv=None) -> None:
    write_all(__doc__, TRACKS, SR, argv)


if __name__ == "__main__":
    main()
