"""The real embedded model answers about a file above big_file_mb with sql() (~1 minute). `-m real_model`."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsagent.session import Session

pytestmark = pytest.mark.real_model


def test_quick_answers_a_filtered_sum_over_a_big_file_with_sql(local_spec: str, orders_csv: Path) -> None:
    expected = sum(i * 0.5 for i in range(2000) if i % 4 == 3)  # the West rows of the fixture
    with Session([orders_csv], model=local_spec, big_file_mb=0.001) as session:
        assert session.datasets["orders"].big is not None
        result = session.ask("What is the total amount of the orders in the West region?")
    assert result.output_type == "analysis", result.error or result.explanation
    assert "sql(" in (result.code or "")
    numbers = [float(t) for t in str(result.result_str).replace(",", "").split() if t.replace(".", "", 1).isdigit()]
    assert any(n == pytest.approx(expected) for n in numbers), result.result_str
