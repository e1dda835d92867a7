"""The band table's note names what a few-scores band does not cover (issue 10: the page says it,
with the figure)."""

from types import SimpleNamespace

from ccreport.analysis import measured_coverage as mc
from ccreport.render.sections.uncertainty import band_note
from ccreport.tasks.bands_task import TARGET_FEW_SCORES, TARGET_SCORES


def _band(target, calibrated=True):
    return SimpleNamespace(
        target=target, correction="optimism-corrected", calibration=object() if calibrated else None
    )


def test_a_few_scores_band_is_named_with_its_shortfall_whatever_the_order():
    bands = {
        "knn": _band(TARGET_SCORES + TARGET_FEW_SCORES),
        "logreg": _band(TARGET_SCORES),
        "stump": _band(TARGET_SCORES + TARGET_FEW_SCORES),
        "crisp": _band("the true cost of this classifier's cost line", calibrated=False),
    }
    note = band_note(bands)
    assert f"What the band covers: {TARGET_SCORES}." in note
    assert (
        "For knn, stump: with few distinct scores the band's lower edge also reaches the "
        "basic bootstrap's" in note
    )
    figure = mc.span(mc.FIVE_ROUNDED_SELECTED)
    assert figure in note and note.count(figure) == 1


def test_no_addition_when_every_band_has_the_plain_target():
    note = band_note({"a": _band(TARGET_SCORES), "b": _band(TARGET_SCORES)})
    assert "For " not in note and note.endswith(f"{TARGET_SCORES}.")
