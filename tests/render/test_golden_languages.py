"""The golden images of one mid-game state in every language (docs/images/languages/, issue
17) still match what the renderer draws: pixels, not only sizes. After an intended change to
the images, write them anew with ``python -m devtools.brazil.render golden`` and look at them."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import i18n
from devtools.brazil.render import GOLDEN, golden_images


@pytest.mark.slow
@pytest.mark.parametrize("lang", i18n.supported())
def test_golden_images_match(lang: str) -> None:
    for kind, data in golden_images(lang).items():
        path = GOLDEN / f"{lang}-{kind}.png"
        assert path.exists(), f"{path} missing: python -m devtools.brazil.render golden"
        want = Image.open(path).convert("RGB")
        got = Image.open(io.BytesIO(data)).convert("RGB")
        assert got.size == want.size, (kind, got.size, want.size)
        diff = ImageChops.difference(got, want).convert("L").point(lambda x: 255 if x > 24 else 0)
        changed = sum(diff.histogram()[255:]) / (want.size[0] * want.size[1])
        assert changed < 0.001, f"{lang} {kind}: {changed:.2%} of the pixels differ"


def test_each_language_draws_its_own_words() -> None:
    en = Image.open(GOLDEN / "en-hand.png").convert("RGB")
    for lang in i18n.supported():
        if lang != "en":
            other = Image.open(GOLDEN / f"{lang}-hand.png").convert("RGB")
            assert other.size != en.size or ImageChops.difference(other, en).getbbox()
