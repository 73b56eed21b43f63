"""What the suite itself promises: a new release of a dependency cannot fail it through a
deprecation in the dependency's own code, while a deprecation our own code causes does."""

import warnings

import pytest
from conftest import OUR_DEPRECATIONS


def _warn_from(module: str, category=DeprecationWarning) -> None:
    """A warning as the warnings machinery attributes it: to the module `module`."""
    warnings.warn_explicit("old API", category, f"{module.replace('.', '/')}.py", 1,
                           module=module, registry={})


@pytest.mark.parametrize("category", [DeprecationWarning, PendingDeprecationWarning,
                                      FutureWarning])
@pytest.mark.parametrize("module", ["flask.sansio.app", "click", "granian.server",
                                    "playwright._impl._api", "scorekeepers_fork"])
def test_a_dependencys_deprecation_in_its_own_code_is_reported_not_fatal(module, category):
    with warnings.catch_warnings(record=True) as seen:
        _warn_from(module, category)
    assert [(str(w.message), w.category) for w in seen] == [("old API", category)]


@pytest.mark.parametrize("category", [DeprecationWarning, PendingDeprecationWarning,
                                      FutureWarning])
@pytest.mark.parametrize("module", ["scorekeeper", "scorekeeper.commands.move",
                                    "bench.replay_identical", "conftest", "stores",
                                    "test_suite_policy", "browser.test_newcomer"])
def test_a_deprecation_our_own_call_causes_fails_the_run(module, category):
    """click.get_text_stream warned with stacklevel=2: the warning names our module."""
    with pytest.raises(category, match="old API"):
        _warn_from(module, category)


def test_every_other_warning_from_anywhere_is_an_error():
    with pytest.raises(ResourceWarning):
        warnings.warn_explicit("unclosed file", ResourceWarning, "flask/app.py", 1,
                               module="flask.app", registry={})


def test_our_modules_pattern_names_whole_modules():
    import re
    assert re.match(OUR_DEPRECATIONS, "stores")
    assert re.match(OUR_DEPRECATIONS, "scorekeeper.web")
    assert not re.match(OUR_DEPRECATIONS, "storesx")
    assert not re.match(OUR_DEPRECATIONS, "flask")
