"""UI strings per language: templates and renderers ask here, never hard-code text.

A missing key is a programming error (KeyError), so a language cannot silently
fall back to another one.
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "es": {
        "skip_to_content": "Saltar al contenido",
        "course": "Curso",
        "lesson_n": "Lección {n}",
        "lesson_label": "Lección",
        "previous_lesson": "Lección anterior",
        "next_lesson": "Lección siguiente",
        "back_to_course": "Volver al curso",
        "status_published": "Publicada",
        "status_upcoming": "Próximamente",
        "upcoming_ref_title": "Lección {n} (todavía no publicada; ver el curso)",
        "exercises_heading": "Comprueba tu comprensión",
        "exercise_n": "Pregunta {n}",
        "show_solution": "Mostrar la solución paso a paso",
        "sources": "Fuentes",
        "note": "Nota",
        "code": "Código",
        "table": "Tabla",
        "output": "Salida",
        "contents": "Contenido",
        "lesson_nav": "Navegación entre lecciones",
        "course_lessons": "Lecciones del curso",
        "explorer_placeholder": "Explorador interactivo",
        "show_table": "Mostrar los datos del gráfico como tabla",
        "current_state": "Estado actual",
        "selected": "← Seleccionada",
        "apply": "Aplicar",
        "chart": "Gráfico",
        "times": "×",
        "bad_request_title": "Petición no válida",
        "uri_too_long": "La dirección pedida es demasiado larga.",
        "not_found_title": "Página no encontrada",
        "allowed_values": "Valores permitidos para {name}: {values}.",
        "footer": "Publicado con pizarra. Cada salida de código, cada cifra y cada enlace se comprueban antes de publicar.",
        "reload_notice": "La página se ha actualizado",
        "value_with_unit": "{value} {unit}",
        "explorer_growth_axis": "Crecimiento respecto a {baseline}",
        "explorer_chart_title": "{series} frente a {variable}",
        "explorer_chart_desc": "Ambos ejes usan escala logarítmica de base {base}: cada paso multiplica por {base}. Eje horizontal: {variable}, de {low} a {high}. Eje vertical: {axis}, de {ymin} a {ymax}. {lines} Todos los valores están en la tabla de datos.",
        "explorer_line_desc": "{label}: {style}.",
        "line_solid": "línea continua",
        "line_dashed": "línea discontinua",
        "line_dotted": "línea de puntos",
    },
    "en": {
        "skip_to_content": "Skip to content",
        "course": "Course",
        "lesson_n": "Lesson {n}",
        "lesson_label": "Lesson",
        "previous_lesson": "Previous lesson",
        "next_lesson": "Next lesson",
        "back_to_course": "Back to the course",
        "status_published": "Published",
        "status_upcoming": "Coming soon",
        "upcoming_ref_title": "Lesson {n} (not published yet; see the course)",
        "exercises_heading": "Check your understanding",
        "exercise_n": "Question {n}",
        "show_solution": "Show the step-by-step solution",
        "sources": "Sources",
        "note": "Note",
        "code": "Code",
        "table": "Table",
        "output": "Output",
        "contents": "Contents",
        "lesson_nav": "Lesson navigation",
        "course_lessons": "Lessons of the course",
        "explorer_placeholder": "Interactive explorer",
        "show_table": "Show the chart data as a table",
        "current_state": "Current state",
        "selected": "← Selected",
        "apply": "Apply",
        "chart": "Chart",
        "times": "×",
        "bad_request_title": "Bad request",
        "uri_too_long": "The requested address is too long.",
        "not_found_title": "Page not found",
        "allowed_values": "Allowed values for {name}: {values}.",
        "footer": "Published with pizarra. Every code output, figure and link is checked before publishing.",
        "reload_notice": "The page was updated",
        "value_with_unit": "{value} {unit}",
        "explorer_growth_axis": "Growth relative to {baseline}",
        "explorer_chart_title": "{series} against {variable}",
        "explorer_chart_desc": "Both axes use a base-{base} logarithmic scale: each step multiplies by {base}. Horizontal axis: {variable}, from {low} to {high}. Vertical axis: {axis}, from {ymin} to {ymax}. {lines} Every value is in the data table.",
        "explorer_line_desc": "{label}: {style}.",
        "line_solid": "solid line",
        "line_dashed": "dashed line",
        "line_dotted": "dotted line",
    },
}

LANGUAGES = tuple(STRINGS)


def supported(lang: str) -> bool:
    return lang in STRINGS


def t(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    text = STRINGS[lang][key]
    return text.format(**values) if values else text
