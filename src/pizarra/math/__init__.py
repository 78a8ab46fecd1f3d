"""The two readers of TeX that every stage shares.

:mod:`~pizarra.math.exact` decides statements in exact arithmetic (and reads numerals
and the functions a lesson defines); :mod:`~pizarra.math.mathml` turns TeX into MathML.
"""
