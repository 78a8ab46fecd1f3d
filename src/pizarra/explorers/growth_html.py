"""The ``growth`` explorer's HTML, a Jinja template with autoescape on.

The markup is complete without JavaScript: links to every state (each state is a
page of its own, so this works from any static host), the chart, the readouts,
the summary and the data table all show the selected state. ``growth.js`` only
swaps the links for a range input and rewrites the same elements in place.

Classes start with ``px-``; ``data-*`` attributes are what the script reads.
"""

from __future__ import annotations

from jinja2 import Environment, StrictUndefined

TEMPLATE = """\
<section class="px-explorer px-growth" id="{{ id }}" data-explorer="growth" \
aria-labelledby="{{ id }}-label">
<div class="px-control" data-pagefind-ignore>
<label class="px-label" id="{{ id }}-label" for="{{ id }}-range">{{ label }}</label>
<p class="px-hint" id="{{ id }}-hint">{{ hint }}</p>
<div class="px-input">
<ul class="px-nojs px-states" aria-labelledby="{{ id }}-label" aria-describedby="{{ id }}-hint">
{%- for option in options %}
<li><a href="{{ option.href }}"{% if option.selected %} aria-current="true"{% endif %}>\
{{ option.text }}</a></li>
{%- endfor %}
</ul>
<input class="px-range" type="range" id="{{ id }}-range" min="{{ low }}" max="{{ high }}" step="1" \
value="{{ exponent }}" aria-labelledby="{{ id }}-label" aria-describedby="{{ id }}-hint" \
aria-valuetext="{{ valuetext }}" hidden>
<span class="px-value px-slot" aria-hidden="true"><span class="px-sizer">{{ widest_value }}</span>\
<span data-value>{{ value_text }}</span></span>
</div>
</div>
<ul class="px-legend">
{%- for line in chart.lines %}
<li><svg class="px-swatch" viewBox="0 0 36 10" width="36" height="10" aria-hidden="true" \
focusable="false">\
<line class="px-line px-s{{ loop.index0 }} px-{{ line.style }}" x1="1" y1="5" x2="35" y2="5"/>\
</svg>\
{{ line.label }}</li>
{%- endfor %}
</ul>
<div class="px-chart">
<svg viewBox="0 0 {{ width }} {{ height }}" role="img" aria-labelledby="{{ id }}-title" \
aria-describedby="{{ id }}-desc" focusable="false">
<title id="{{ id }}-title">{{ title }}</title>
<desc id="{{ id }}-desc">{{ desc }}</desc>
<g class="px-grid">
{%- for tick in chart.x_ticks %}
<line x1="{{ tick.at }}" y1="{{ plot[1] }}" x2="{{ tick.at }}" y2="{{ plot[3] }}"/>
{%- endfor %}
{%- for tick in chart.y_ticks %}
<line x1="{{ plot[0] }}" y1="{{ tick.at }}" x2="{{ plot[2] }}" y2="{{ tick.at }}"/>
{%- endfor %}
</g>
<g class="px-axis">
<line x1="{{ plot[0] }}" y1="{{ plot[3] }}" x2="{{ plot[2] }}" y2="{{ plot[3] }}"/>
<line x1="{{ plot[0] }}" y1="{{ plot[1] }}" x2="{{ plot[0] }}" y2="{{ plot[3] }}"/>
{%- for tick in chart.x_ticks if tick.label %}
<text x="{{ tick.at }}" y="{{ plot[3] + 16 }}" text-anchor="{{ tick.anchor }}"\
{% if tick.wide %} class="px-wide-only"{% endif %}>{{ tick.label }}</text>
{%- endfor %}
{%- for tick in chart.y_ticks if tick.label %}
<text x="{{ plot[0] - 6 }}" y="{{ tick.at + 4 }}" text-anchor="end">{{ tick.label }}</text>
{%- endfor %}
<text class="px-axis-title" x="{{ (plot[0] + plot[2]) / 2 }}" y="{{ height - 6 }}" \
text-anchor="middle">\
{{ chart.x_title }}</text>
<text class="px-axis-title" x="4" y="16">{{ chart.y_title }}</text>
</g>
<g class="px-marker-line" data-marker transform="translate({{ marker.x }} 0)">
<line x1="0" y1="{{ plot[1] }}" x2="0" y2="{{ plot[3] }}"/>
</g>
{%- for line in chart.lines %}
{%- set series = loop.index0 %}
<g class="px-series px-s{{ series }}">
<polyline class="px-line px-{{ line.style }}" points="\
{% for x, y in line.points %}{{ x }},{{ y }}{% if not loop.last %} {% endif %}{% endfor %}"/>
{%- for x, y in line.points %}
<circle class="px-point" cx="{{ x }}" cy="{{ y }}" r="2.5"/>
{%- endfor %}
<text class="px-direct" x="{{ line.label_at[0] }}" y="{{ line.label_at[1] }}" text-anchor="end">\
{{ line.label }}</text>
<circle class="px-dot" data-dot="{{ series }}" r="5.5" \
transform="translate({{ marker.x }} {{ marker.ys[series] }})"/>
</g>
{%- endfor %}
</svg>
</div>
<dl class="px-readouts">
{%- for readout in readouts %}
<div class="px-readout"><dt>{{ readout.label }}</dt><dd class="px-slot">\
<span class="px-sizer" aria-hidden="true">{{ widest_readouts[readout.id] }}</span>\
<span data-readout="{{ readout.id }}">{{ texts[readout.id] }}</span></dd></div>
{%- endfor %}
</dl>
<p class="px-summary px-slot"><span class="px-sizer" aria-hidden="true">{{ widest_summary }}</span>\
<span data-summary>{{ summary }}</span></p>
<p class="px-sr-only" data-live aria-live="polite"></p>
<details class="px-data">
<summary>{{ show_table }}</summary>
<div class="px-table" role="region" tabindex="0" aria-labelledby="{{ id }}-caption">
<table>
<caption id="{{ id }}-caption">{{ table.caption }}</caption>
<thead><tr>
{%- for column in table.columns %}<th scope="col">{{ column.label }}</th>{% endfor -%}
<th scope="col">{{ current_label }}</th></tr></thead>
<tbody>
{%- for row in rows %}
<tr{% if row.current %} class="px-current" aria-current="true"{% endif %}>
{%- for cell in row.cells %}{% if loop.first %}<th scope="row">{{ cell }}</th>\
{% else %}<td>{{ cell }}</td>{% endif %}{% endfor -%}
<td data-mark>{% if row.current %}{{ mark }}{% endif %}</td></tr>
{%- endfor %}
</tbody>
</table>
</div>
</details>
<script type="application/json" data-explorer-data>{{ data }}</script>
</section>
"""

ENV = Environment(autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
"""Autoescaping environment: every value from a lesson is escaped."""

GROWTH = ENV.from_string(TEMPLATE)
"""The compiled template."""
