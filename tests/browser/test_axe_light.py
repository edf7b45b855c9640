"""axe-core over every built page in the light scheme (axe_audit.py says what is audited)."""

import pytest
from axe_audit import audit_every_page

pytestmark = pytest.mark.slow


def test_no_serious_wcag_violation_on_any_page_in_the_light_scheme(open_page, site_dir):
    audit_every_page(open_page, site_dir, dark=False)
