"""What WeasyPrint's styling of report.pdf costs, cut without changing a computed value.

WeasyPrint 70 already shares whole computed styles between elements (``StyleFor.__init__``: one
``ComputedStyle`` per parent style, style attribute and list of matched rules; the example's 6,090
elements have 1,898), so sharing element styles gains nothing more. What it does not share or defer
are the pseudo-elements': for every element and every pseudo-element some rule matches it makes a
``ComputedStyle`` and computes its ``anchor`` before a single box exists. Its own user-agent sheet
matches every element's ``::marker``, ``::footnote-call``, ``::footnote-marker``, ``::note-call``,
``::note-marker`` and ``::note-callback``, and the theme's ``*::before, *::after { box-sizing:
border-box }`` every element's ``::before`` and ``::after``: 48,720 styles for the example, of which
the box building asks for 12,281 (the ``::before`` and ``::after`` of every displayed element, the
``::marker`` of each list item); 236 are still made with the first two cuts below.

* :func:`pseudo_styles_on_demand`: a pseudo-element's style whose cascade declares no ``anchor`` is
  made the first time the box building asks for it, by WeasyPrint's own ``set_computed_styles`` with
  the cascade and arguments it had in ``__init__``: 36,439 of the example's styles are never made,
  ``get_all_computed_styles`` 0.487 -> 0.385 CPU s (medians of 10 + 10 alternating calls on the
  example's document).
* :func:`empty_pseudo_boxes_skipped`: a ``::before``/``::after`` still deferred whose cascade declares
  none of ``content``, ``display``, ``float``, ``position`` makes no box, so ``before_after_to_box``
  returns none without making its style: 12,045 more never made, 236 made in all; ``render_pdf``
  5.15 -> 5.01 CPU s (medians of 6 + 6 alternating runs, the first cut on in both).
* :func:`uncascaded_values_direct`: WeasyPrint computes each property of a style on its first read
  in one general function (``ComputedStyle.__missing__``: var(), logical twins, 'inherit' and
  'initial', decorations, page, math, computer function), 179,000 first reads for the example, most
  of them of properties the cascade does not declare. For those the direct path takes the few steps
  that apply, in WeasyPrint's order: the outermost ``__missing__`` calls of a render 0.567 -> 0.346 s
  (medians of 5 + 5 alternating renders).

* :func:`shared_cascades_reused`: WeasyPrint builds every element's cascade, its own and its
  pseudo-elements', before it finds the element's style among the shared ones (4,192 of the example's
  6,090 elements). A copy of its ``StyleFor.__init__`` skips the cascade of such an element when the
  element whose style it shares had the same pseudo-element types, deferring that element's
  pseudo-element cascades for it: 211,122 -> 55,049 declarations weighed, ``get_all_computed_styles``
  0.409 (0.404-0.508) -> 0.341 (0.338-0.346) CPU s (medians of 10 + 10 alternating calls, the first cut
  on in both); patched only while WeasyPrint's constructor is the source copied.

The first two: ``render_pdf`` 5.27 (4.96-5.43) -> 5.10 (4.75-5.33) CPU s, medians of 7 + 7 alternating
runs, every pair faster (median of the differences 0.21 s). The first three: 5.49 (5.31-6.64) -> 5.00
(4.92-6.04), 8 + 8 runs, every pair faster (median 0.43 s). All four, in a noisier hour: 5.88
(5.42-6.84) -> 5.07 (4.93-6.22), 8 + 8 runs, every pair faster (median 0.62 s). report.pdf
byte-identical in every run.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager

from .shared_patch import SharedPatch

_pseudo_patch = SharedPatch()
PENDING = "_ccreport_pending_pseudo"  # a patched StyleFor's attribute: (element, pseudo type) -> deferred arguments
_DEFERRING = "_ccreport_deferring_pseudo"  # instance attribute, set while __init__ runs
_reusing_init = None  # StyleFor.__init__ reusing shared styles' cascades, while shared_cascades_reused is active


def anchor_is_constant(properties, computer_functions, physical_functions) -> bool:
    """Whether a style whose cascade has no ``anchor`` computes it to a falsy constant (so that
    ``set_computed_styles`` collects no anchor for it, now or later), as in WeasyPrint 70."""
    return (
        "anchor" not in properties.INHERITED
        and not properties.INITIAL_VALUES.get("anchor", True)
        and "anchor" not in properties.INITIAL_NOT_COMPUTED
        and "anchor" not in computer_functions
        and "anchor" not in physical_functions
    )


def deferrable(cascaded: dict) -> bool:
    """Whether a pseudo-element style with this cascade may be made when first asked for: its cascade
    declares no ``anchor``, so ``set_computed_styles`` collects no anchor for it."""
    return "anchor" not in cascaded


def make_deferred(set_computed, style_for, element, pseudo_type, cascaded, root, base_url, target_collector):
    """The style ``StyleFor.__init__`` would have made for ``(element, pseudo_type)``: WeasyPrint's
    ``set_computed_styles`` (``set_computed``) called as ``__init__`` calls it, with the element's
    cascade put back in place for the call."""
    cascaded_styles = style_for.get_cascaded_styles()
    key = (element, pseudo_type)
    if key in cascaded_styles:  # pragma: no cover - __init__ clears every element's cascade
        raise RuntimeError("a deferred pseudo-element style has a cascade again")
    cascaded_styles[key] = cascaded
    try:
        set_computed(
            style_for, element, parent=element, root=root, pseudo_type=pseudo_type,
            base_url=base_url, target_collector=target_collector,
        )
    finally:
        del cascaded_styles[key]


@contextmanager
def pseudo_styles_on_demand():
    """While active, ``StyleFor`` defers each pseudo-element style of an element whose cascade has
    no ``anchor`` from ``__init__`` to the first ``style_for(element, pseudo_type)`` (module
    docstring).

    Why the styles are the same: ``set_computed_styles`` builds a ``ComputedStyle`` that only keeps
    its arguments (the element's computed style as parent, the root's, the cascade, base URL, font
    configuration, page sizes) and computes each value when it is first read; deferred, it is built
    by the same function from the same objects (the cascade dict is kept; ``__init__`` clears only
    the dict that held it). Nothing can read the style before ``StyleFor.__call__`` hands it out:
    WeasyPrint reaches element styles only through ``__call__`` and its pages' styles, which are
    not deferred. Its ``anchor`` is read at once, as ``__init__`` reads it, and is None without an
    ``anchor`` in the cascade (:func:`anchor_is_constant`), so ``__init__`` would have collected no
    anchor for it. A style never asked for is never made. A StyleFor made while the patch is active
    keeps its class (:class:`OnDemandStyleFor`, made here) after the patch is undone, and so goes
    on making its deferred styles when they are asked for."""
    try:
        from weasyprint import css
        from weasyprint.css import computed_values, properties

        style_for_class = css.StyleFor
        init = style_for_class.__dict__["__init__"]
        call = style_for_class.__dict__["__call__"]
        set_computed = style_for_class.__dict__["set_computed_styles"]
        constant = anchor_is_constant(properties, computed_values.COMPUTER_FUNCTIONS, css.PHYSICAL_FUNCTIONS)
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    class OnDemandStyleFor(style_for_class):
        """A StyleFor whose pseudo-element styles without ``anchor`` are made when first asked for
        (a made StyleFor keeps this class once the patch is undone)."""

        def set_computed_styles(self, element, parent, root=None, pseudo_type=None, base_url=None,
                                target_collector=None):
            if pseudo_type and parent is element and self.__dict__.get(_DEFERRING):
                cascaded = self.get_cascaded_styles().get((element, pseudo_type))
                if cascaded is not None and deferrable(cascaded):
                    self.__dict__[PENDING][element, pseudo_type] = (cascaded, root, base_url, target_collector)
                    return
            set_computed(self, element, parent, root, pseudo_type, base_url, target_collector)

        def __call__(self, element, pseudo_type=None):
            if pseudo_type:
                pending = self.__dict__.get(PENDING)
                if pending:
                    arguments = pending.pop((element, pseudo_type), None)
                    if arguments is not None:
                        make_deferred(set_computed, self, element, pseudo_type, *arguments)
            return call(self, element, pseudo_type)

    def deferring_init(self, *args, **kwargs):
        if type(self) is not style_for_class:  # a subclass of someone else's: WeasyPrint's own
            return init(self, *args, **kwargs)
        self.__class__ = OnDemandStyleFor
        self.__dict__[PENDING] = {}
        self.__dict__[_DEFERRING] = True  # set_computed_styles defers only inside __init__
        try:
            (_reusing_init or init)(self, *args, **kwargs)  # shared_cascades_reused's, while it is active
        finally:
            del self.__dict__[_DEFERRING]

    deferring_init.__wrapped__ = init  # WeasyPrint's, for inspect (shared_cascades_reused checks its source)

    with _pseudo_patch.attribute_set(style_for_class, "__init__", deferring_init, when=lambda: constant):
        yield


_boxes_patch = SharedPatch()
# The properties ``before_after_to_box`` reads before it can return no box (``display`` reads ``float``,
# which reads ``position``)
_READ_BEFORE_CONTENT = ("content", "display", "float", "position")


def content_is_normal(properties, physical_functions) -> bool:
    """Whether a ``::before``/``::after`` style whose cascade declares no ``content`` computes it to a
    value for which ``before_after_to_box`` makes no box ('normal': WeasyPrint 70's initial value,
    stored as it is)."""
    return (
        properties.INITIAL_VALUES.get("content") in ("normal", "inhibit", "none")
        and "content" not in properties.INITIAL_NOT_COMPUTED
        and "content" not in properties.INHERITED
        and "content" not in physical_functions
    )


def boxless(cascaded: dict) -> bool:
    """Whether a deferred ``::before``/``::after`` cascade gives no box without its style being made:
    it declares none of the properties ``before_after_to_box`` reads (so each has its initial value,
    content 'normal', and no var() or math is resolved or warned about)."""
    return not any(name in cascaded for name in _READ_BEFORE_CONTENT)


@contextmanager
def empty_pseudo_boxes_skipped():
    """While active (inside :func:`pseudo_styles_on_demand`), WeasyPrint's ``before_after_to_box``
    returns no box at once for a ``::before`` or ``::after`` whose style is still deferred and whose
    cascade declares none of ``content``, ``display``, ``float`` and ``position``, without making the
    style.

    WeasyPrint asks for the ``::before`` and ``::after`` of every element it builds a box for; the
    theme's ``*::before, *::after { box-sizing: border-box }`` gives each a style (about 12,000 for the
    example, each made and then asked for ``display``, ``float``, ``position`` and ``content``: about
    0.1 CPU s). Such a style's ``content`` is its initial value, 'normal' (:func:`content_is_normal`),
    for which ``before_after_to_box`` returns an empty list once it has read ``display`` and
    ``content``; those reads change nothing but the style itself, which only ``before_after_to_box``
    asks for. The style stays deferred: if anything asked for it later, it would be made then, with
    the same values (only the values read so far, the keys of the style dict, would differ)."""
    try:
        from weasyprint import css
        from weasyprint.css import properties
        from weasyprint.formatting_structure import build

        original = build.before_after_to_box
        normal = content_is_normal(properties, css.PHYSICAL_FUNCTIONS)
    except (ImportError, AttributeError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    def before_after_to_box(element, pseudo_type, state, style_for, *args, **kwargs):
        pending = getattr(style_for, "__dict__", {}).get(PENDING)
        if pending and pseudo_type in ("before", "after"):
            arguments = pending.get((element, pseudo_type))
            if arguments is not None and boxless(arguments[0]):
                return []
        return original(element, pseudo_type, state, style_for, *args, **kwargs)

    with _boxes_patch.attribute_set(build, "before_after_to_box", before_after_to_box, when=lambda: normal):
        yield


_values_patch = SharedPatch()
# Keys ComputedStyle.__missing__ treats apart even when the cascade does not declare them: position, float
# and display (their specified values are kept, float reads position and display float), page ('auto' takes
# the ancestor's), text decorations (propagated), custom properties ('__' prefix)
_SPECIAL_KEYS = ("position", "float", "display", "page")


def direct_keys(properties) -> frozenset:
    """The properties :func:`uncascaded_values_direct` computes itself when the cascade does not declare
    them: every property but those ``ComputedStyle.__missing__`` treats apart (:data:`_SPECIAL_KEYS`,
    text decorations, custom properties)."""
    return frozenset(
        key for key in properties.INITIAL_VALUES
        if key not in _SPECIAL_KEYS and not key.startswith("text_decoration_") and key[:2] != "__"
    )


def initial_values_plain(properties, check_math) -> bool:
    """Whether no initial value is a math function (``__missing__`` resolves one if it is)."""
    return not any(check_math(value) for value in properties.INITIAL_VALUES.values())


def direct_missing(original, keys, inherited, initial_values, not_computed, computers, physical, check_math):
    """``ComputedStyle.__missing__`` (WeasyPrint 70) for a property in ``keys`` that the style's cascade
    does not declare (nor, for a physical property, its logical twin for the style's direction): the
    parent's value when it is inherited and the style has a parent (and that value is no math
    function), else the initial value, computed by its computer function if WeasyPrint computes it.
    Anything else goes to ``original``, which then takes the very steps it would have taken."""
    logical_keys: dict = {}

    def __missing__(self, key):
        cascaded = self.cascaded
        if key in cascaded or key not in keys:
            return original(self, key)
        logical_function = physical.get(key)
        if logical_function is not None:
            direction = self["direction"]  # read, as __missing__ reads it, before the logical key is looked for
            try:
                logical = logical_keys[key, direction]
            except (KeyError, TypeError):
                logical = logical_function(block="ttb", inline=direction)
                if type(direction) is str:
                    logical_keys[key, direction] = logical
            if logical in cascaded:
                return original(self, key)
        parent_style = self.parent_style
        if parent_style is not None and key in inherited:
            value = parent_style[key]
            if check_math(value):  # __missing__ resolves it again in this style
                return original(self, key)
            self[key] = value
            return value
        value = initial_values[key]
        if key in not_computed and key in computers:
            value = computers[key](self, key, value)
        self[key] = value
        return value

    return __missing__


@contextmanager
def uncascaded_values_direct():
    """While active, ``ComputedStyle.__missing__`` computes a property the style's cascade does not
    declare straight from the parent (inherited) or the initial value (:func:`direct_missing`).

    WeasyPrint computes each property of a style on first access in one general function: the
    cascaded value or 'inherit'/'initial', a logical twin, var() resolution, 'inherit' and 'initial',
    text decorations, the page, the specified position/float/display, math functions, then the
    computer function. For a property the cascade does not declare, most of those steps do nothing:
    the value is 'inherit' (an inherited property, the style having a parent) or 'initial'; nothing is
    pending; a physical property reads the style's ``direction`` and takes its logical twin's value only
    if the cascade declares the twin; 'inherit' stores the parent's computed value, 'initial' stores
    the initial value unless WeasyPrint computes it (``INITIAL_NOT_COMPUTED``: then its computer
    function's result is stored); a math function is resolved again (none among the initial values,
    :func:`initial_values_plain`; an inherited one is left to WeasyPrint). The direct path takes those
    same steps in the same order: the same values and the same keys, in the same order, in every
    style dict. Everything else (a declared property, its logical twin declared, position, float,
    display, page, text decorations, custom properties, an inherited math function) is WeasyPrint's."""
    try:
        from weasyprint import css
        from weasyprint.css import computed_values, functions, properties

        style_class = css.ComputedStyle
        original = style_class.__dict__["__missing__"]
        fast = direct_missing(
            original, direct_keys(properties), properties.INHERITED, properties.INITIAL_VALUES,
            properties.INITIAL_NOT_COMPUTED, computed_values.COMPUTER_FUNCTIONS, css.PHYSICAL_FUNCTIONS,
            functions.check_math,
        )
        plain = initial_values_plain(properties, functions.check_math)
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    with _values_patch.attribute_set(style_class, "__missing__", fast, when=lambda: plain):
        yield


_cascades_patch = SharedPatch()
# sha256 of the source of WeasyPrint 70.0's StyleFor.__init__, which init_reusing_cascades copies
STYLE_FOR_INIT_SHA256 = "b1e725a7552502aa00f0bc07aec79c1aa49365b107a889085161f8d6a4c4a836"


def source_sha256(function) -> str | None:
    """sha256 of a function's source text, through any ``__wrapped__`` (None if it cannot be read)."""
    import hashlib
    import inspect

    try:
        return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()
    except (OSError, TypeError):  # pragma: no cover - no source file
        return None


def pseudo_types(matched) -> tuple:
    """The pseudo-element types of an element's matched rules, in order (None: the element itself)."""
    return tuple(match[2] for match in matched)


def init_reusing_cascades(css):
    """WeasyPrint 70.0's ``StyleFor.__init__``, copied, which does not build the cascade of an element
    whose computed style it shares when the element whose style it shares had the same pseudo-element
    types in its matched rules and no ``anchor`` in their cascades: that element's pseudo-element
    cascades are deferred for this one (see :func:`shared_cascades_reused`). Used only inside
    :func:`pseudo_styles_on_demand`'s ``__init__`` (it files deferred styles under :data:`PENDING`)."""
    from math import inf

    progress_logger, find_style_attributes = css.PROGRESS_LOGGER, css.find_style_attributes
    preprocess_declarations, declaration_precedence = css.preprocess_declarations, css.declaration_precedence

    def __init__(self, html, sheets, presentational_hints, font_config, target_collector):
        self._cascaded_styles = cascaded_styles = {}
        self._computed_styles = computed_styles = {}
        self.initial_page_sizes = {'box': None, 'area': None}
        self._sheets = sheets
        self.font_config = font_config

        progress_logger.info('Step 3 - Applying CSS')
        layer_order = inf
        elements_declarations = {}
        for specificity, element, declarations, base_url in find_style_attributes(
                html.etree_element, presentational_hints, html.base_url):
            style = cascaded_styles.setdefault((element, None), {})
            elements_declarations[element] = tuple(declarations)
            for name, values, importance in preprocess_declarations(
                    base_url, declarations):
                precedence = declaration_precedence('author', importance)
                weight = (precedence, layer_order, specificity)
                old_weight = style.get(name, (None, None))[1]
                if old_weight is None or old_weight <= weight:
                    style[name] = values, weight

        computed_cache = {}
        reusable = {}  # key -> (pseudo types, {pseudo type: cascade}) of the element whose style is shared
        pending = self.__dict__[PENDING]
        for element in html.wrapper_element.iter_subtree():
            etree_element = element.etree_element
            parent = element.parent.etree_element if element.parent else None
            parent_id = id(computed_styles[parent, None]) if element.parent else None
            element_declarations = elements_declarations.get(etree_element)
            selectors_keys = []
            matched = []  # WeasyPrint cascades each match as it finds it; here once all are found
            for sheet, origin, sheet_specificity in sheets:
                for selector in sheet.matcher.match(element):
                    specificity, order, pseudo_type, (declarations, layer) = selector
                    layer_order = inf if layer is None else sheet.layers.index(layer)
                    selectors_keys.append(
                        (sheet, specificity, id(declarations), layer_order))
                    specificity = sheet_specificity or specificity
                    matched.append((origin, specificity, pseudo_type, declarations, layer_order))

            key = (parent_id, element_declarations, tuple(selectors_keys))
            types = pseudo_types(matched)
            if key in computed_cache:
                made = reusable.get(key)
                if made is not None and made[0] == types:
                    # the same cascades as the element whose style is shared: none built
                    computed_styles[etree_element, None] = computed_cache[key]
                    for pseudo_type, cascaded in made[1].items():
                        pending[etree_element, pseudo_type] = (
                            cascaded, html.etree_element, html.base_url, target_collector)
                    continue

            for origin, specificity, pseudo_type, declarations, layer_order in matched:
                style = cascaded_styles.setdefault((etree_element, pseudo_type), {})
                for name, values, importance in declarations:
                    precedence = declaration_precedence(origin, importance)
                    weight = (precedence, layer_order, specificity)
                    old_weight = style.get(name, (None, None))[1]
                    if old_weight is None or old_weight <= weight:
                        style[name] = values, weight

            if key in computed_cache:
                computed_styles[etree_element, None] = computed_cache[key]
            else:
                self.set_computed_styles(
                    etree_element, root=html.etree_element, parent=parent,
                    base_url=html.base_url, target_collector=target_collector)
                computed_cache[key] = computed_styles[etree_element, None]
                cascades = {
                    pseudo_type: cascaded_styles[etree_element, pseudo_type]
                    for pseudo_type in dict.fromkeys(types) if pseudo_type}
                if all(deferrable(cascaded) for cascaded in cascades.values()):
                    reusable[key] = (types, cascades)

        for element, pseudo_type in cascaded_styles:
            if pseudo_type:
                self.set_computed_styles(
                    element, pseudo_type=pseudo_type,
                    root=html.etree_element, parent=element,
                    base_url=html.base_url, target_collector=target_collector)

        self._cascaded_styles.clear()

    return __init__


@contextmanager
def shared_cascades_reused():
    """While active (with :func:`pseudo_styles_on_demand`), ``StyleFor.__init__`` is
    :func:`init_reusing_cascades`: an element whose computed style WeasyPrint shares with an earlier
    element (the same parent style, style attribute and matched rules) and whose matched rules have the
    same pseudo-element types as that element's gets no cascade of its own; its pseudo-element styles
    are deferred with that element's cascades.

    WeasyPrint builds every element's cascade, its own and its pseudo-elements', before it looks the
    element's style up among the shared ones: for 4,192 of the example's 6,090 elements it finds one,
    and the element's own cascade is never read. A pseudo-element's cascade is built from the element's
    matched rules alone, in their order (each rule's declarations, weighed by origin, layer and
    specificity): the same rules with the same pseudo-element types give dicts with the same entries in
    the same order, so the earlier element's serves (a ComputedStyle only reads its cascade). Deferred
    styles collect no anchor, so they are deferred only where no such cascade declares one; the others
    take WeasyPrint's path, in its order. Patched only if WeasyPrint's ``StyleFor.__init__`` is the very
    source copied (:data:`STYLE_FOR_INIT_SHA256`)."""
    try:
        from weasyprint import css

        original = css.StyleFor.__dict__["__init__"]
        copied = init_reusing_cascades(css)
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another WeasyPrint: nothing patched
        yield
        return

    this_module = sys.modules[__name__]  # its _reusing_init, read by pseudo_styles_on_demand's __init__
    with _cascades_patch.attribute_set(
        this_module, "_reusing_init", copied, when=lambda: source_sha256(original) == STYLE_FOR_INIT_SHA256
    ):
        yield
