"""Which packages the wheel holds; everything else is in pyproject.toml.

The pages stay in the checkout's top-level templates/ (as Flask's tutorial keeps
them) and are installed inside the package as scorekeeper/templates, where
create_app finds them when there is no checkout around the package.
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["scorekeeper", "scorekeeper.*"]), "scorekeeper.templates"],
      package_dir={"scorekeeper.templates": "templates"})
