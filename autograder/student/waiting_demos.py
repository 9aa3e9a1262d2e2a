"""The kit's demo cells wait for their stage, with nothing in the demo's code to say so.

A fresh notebook's answer cells hold stubs (``raise NotImplementedError(...)``), so every demo that
calls a stage would stop "Run All" with a traceback. The setup cell's import registers an IPython
AST transformer (``shell.ast_transformers``, run once per cell in every IPython kernel: Jupyter,
JupyterLab, Colab, VS Code) that acts on the kit's own demo cells only. It knows them by their code:
IPython's ``pre_run_cell`` event hands it each cell's code as the kernel received it, and a demo cell
is one whose code hashes to a demo of a notebook the kit built (``kit_demos``; a cell's id or
metadata do not reach every kernel). Before a demo runs, it reads which graded stages the demo uses,
by name, and:

- when one of them (or a stage it calls) is still a stub, or not defined, skips the demo, so that
  "Run All" goes on, and says so in one line: which stage to write first, the first time a demo
  waits for it (until its cell is run again), then "waiting for <stage>" each time after. The names
  the skipped demo would have made wait with it, so a later demo that reads them is skipped too
  instead of stopping at a ``NameError``;
- otherwise runs the demo as written, and if a wrong answer makes it raise, says where it stopped
  in one line, so that "Run All" still reaches the cells after it, and which of its stages' checks
  fail (the stage whose frame raised may be a right one, given a wrong one's output).

Every other cell runs as plain Python, with its own output and Python's full traceback: the
student's answer cells and scratch cells, and a demo they edited, which is theirs now. Outside
IPython (a bare ``python`` run of an exported notebook) nothing is registered and the cells run as
they are.
"""

from __future__ import annotations

import ast
import contextlib
import dis
import sys
import types
from collections.abc import Callable, Iterable, Iterator

from .curriculum import all_stages
from .kit_demos import is_kit_demo
from .selfcheck.catalog import speaking, text

STAGES = {stage: order for order, stage in enumerate(all_stages())}
# The layers the notebooks name, which demos read by name: a module that keeps them otherwise
# (fused in one layer, as GPT-2's c_attn) passes its check and earns full marks, and stops such a demo.
CONTRACT_LAYERS = frozenset({"W_query", "W_key", "W_value", "out_proj"})


def _loaded_names(tree: ast.AST) -> list[str]:
    """Every name the code reads, in order of first appearance (in nested functions too)."""
    seen = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            seen.setdefault(node.id, None)
    return list(seen)


def bound_names(statements: Iterable[ast.stmt]) -> set[str]:
    """The names a cell binds at its top level (in its loops, ``with`` and ``if`` blocks too, not
    inside the functions and classes it defines)."""
    bound: set[str] = set()
    pending = list(statements)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif not isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            pending += ast.iter_child_nodes(node)
    return bound


def _bound_anywhere(tree: ast.AST) -> set[str]:
    """Every name the code binds anywhere, a function's own variables and arguments included: a
    name a function of the cell reads that it binds itself is its own, and no name a skipped demo
    left waiting (a ``weights`` inside a demo's helper is not the ``weights`` of an earlier figure)."""
    bound = bound_names(getattr(tree, "body", []))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
    return bound


def stages_used(source: str) -> list[str]:
    """The graded stages a cell's code names, in order of first appearance (what it waits for)."""
    return [name for name in _loaded_names(ast.parse(source)) if name in STAGES]


def _defines_a_stage(module: ast.Module) -> bool:
    return any(isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
               and statement.name in STAGES for statement in module.body)


def code_objects(value) -> Iterator[types.CodeType]:
    """The code of a function, or of every method a class (and its bases of the same module) defines,
    nested functions included."""
    if isinstance(value, type):
        for klass in value.__mro__:
            if klass.__module__ == value.__module__:
                for member in vars(klass).values():
                    member = getattr(member, "__func__", getattr(member, "fget", member))
                    yield from code_objects(member)
        return
    code = getattr(value, "__code__", None)
    pending = [code] if isinstance(code, types.CodeType) else []
    while pending:
        code = pending.pop()
        yield code
        pending += [constant for constant in code.co_consts if isinstance(constant, types.CodeType)]


def globals_read(code: types.CodeType) -> set[str]:
    """The global names a piece of code reads (not the attributes it reads: ``self.split_heads``)."""
    return {instruction.argval for instruction in dis.get_instructions(code)
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME")}


def unwritten_stages(names: Iterable[str], namespace: dict) -> list[str]:
    """The graded stages among ``names`` that are not defined in ``namespace``, or still raise
    ``NotImplementedError`` somewhere in their code, and the stages they call that do, in
    teaching order."""
    found, seen, pending = set(), set(), [name for name in names if name in STAGES]
    while pending:
        stage = pending.pop()
        if stage in seen:
            continue
        seen.add(stage)
        if stage not in namespace:
            found.add(stage)
            continue
        for code in code_objects(namespace[stage]):
            read = globals_read(code)
            if "NotImplementedError" in read:
                found.add(stage)
            pending += [name for name in read if name in STAGES]
    return sorted(found, key=STAGES.__getitem__)


class WaitingDemos(ast.NodeTransformer):
    """The transformer a notebook's kernel runs on every cell (see the module's docstring)."""

    def __init__(self, namespace: dict, language: str, is_demo: Callable[[str], bool] = is_kit_demo):
        self.namespace = namespace
        self.language = language
        self.is_demo = is_demo  # whether a cell's code is one of the kit's demos
        self.waiting: dict[str, str] = {}  # a name a skipped demo would have made -> the stage it waits for
        self.said: dict[str, object] = {}  # a stage -> what stood for it when a demo said to write it
        self.demo_starting = False  # whether the cell about to run is one of the kit's demos, unedited

    def cell_starts(self, info=None) -> None:
        """IPython's ``pre_run_cell``: note whether the cell the kernel is about to run is a kit demo."""
        self.demo_starting = self.is_demo(getattr(info, "raw_cell", None) or "")

    def cell_ends(self, result=None) -> None:
        """IPython's ``post_run_cell``: whatever runs next (a silent run has no ``pre_run_cell``) is no demo
        until its ``pre_run_cell`` says so."""
        self.demo_starting = False

    def visit_Module(self, module: ast.Module) -> ast.Module:
        demo, self.demo_starting = self.demo_starting, False  # one cell, one transformation
        if not demo:
            return module
        try:
            return self._transformed(module)
        except Exception:  # noqa: BLE001 - whatever happens here, the cell runs as the student wrote it
            return module

    def _transformed(self, module: ast.Module) -> ast.Module:
        if _defines_a_stage(module):
            return module
        names, bound = _loaded_names(module), bound_names(module.body)
        stages = [name for name in names if name in STAGES]
        own = _bound_anywhere(module)
        waited_for = {self.waiting[name] for name in names
                      if name in self.waiting and name not in own and name not in self.namespace}
        if not stages and not waited_for:
            return module
        unwritten = unwritten_stages([*stages, *waited_for], self.namespace)
        if unwritten:
            self._skip(unwritten, bound)
            return ast.Module(body=[], type_ignores=[])
        for name in bound:
            self.waiting.pop(name, None)
        return self._guarded(module, tuple(stages) or tuple(sorted(waited_for)))

    def _skip(self, unwritten: list[str], bound: set[str]) -> None:
        """Say in one line why the demo is skipped: what to do about the first of the ``unwritten``
        stages no demo has named yet (until its cell is run again), so that the first demo waiting
        for a stage says to write it; when all were named, that it waits for the first of them."""
        self.waiting.update(dict.fromkeys(bound, unwritten[0]))
        standing = {stage: self.namespace.get(stage) for stage in unwritten}
        new = [stage for stage in unwritten if stage not in self.said or self.said[stage] is not standing[stage]]
        with speaking(self.language):
            if not new:
                print(text("needs.waiting", stage=unwritten[0]))
                return
            stage = new[0]
            self.said[stage] = standing[stage]
            print(text("needs.finish_first" if standing[stage] is not None else "needs.undefined", stage=stage))

    def _guarded(self, module: ast.Module, stages: tuple[str, ...]) -> ast.Module:
        """``module`` in ``try: ... except Exception: <one line>``, its last expression still shown."""
        body = list(module.body)
        if body and isinstance(body[-1], ast.Expr):
            body[-1] = ast.Expr(self._call("shown", body[-1].value))
        handler = ast.ExceptHandler(type=ast.Name("Exception", ast.Load()), name="_error",
                                    body=[ast.Expr(self._call("stopped", ast.Name("_error", ast.Load()),
                                                              ast.Constant(stages))),
                                          ast.Delete([ast.Name("_error", ast.Del())])])
        guarded = ast.Try(body=body, handlers=[handler], orelse=[], finalbody=[])
        return ast.copy_location(ast.Module(body=[ast.copy_location(guarded, body[0])] if body else [],
                                            type_ignores=module.type_ignores), module)

    def _call(self, method: str, *arguments: ast.expr) -> ast.Call:
        """``sys.modules[<this module>].ACTIVE.<method>(...)``: reaches this object without a name in
        the student's namespace."""
        modules = ast.Attribute(ast.Call(ast.Name("__import__", ast.Load()), [ast.Constant("sys")], []),
                                "modules", ast.Load())
        this = ast.Subscript(modules, ast.Constant(__name__), ast.Load())
        active = ast.Attribute(ast.Attribute(this, "ACTIVE", ast.Load()), method, ast.Load())
        return ast.Call(active, list(arguments), [])

    def shown(self, value) -> None:
        """The cell's last expression, displayed as IPython displays one."""
        sys.displayhook(value)

    def stopped(self, error: Exception, stages: tuple[str, ...]) -> None:
        failing = failing_checks(stages, self.namespace, self.language)
        if failing:
            say_stopped(error, blamed_stage(error, failing, self.namespace), self.language)
        else:
            say_stopped(error, None, self.language, passing=[stage for stage in stages if stage in self.namespace])


def failing_checks(stages: tuple[str, ...], namespace: dict, language: str) -> tuple[str, ...]:
    """The stages of ``stages`` whose public checks fail, in teaching order: a demo that stopped is
    sent to one of them, never to a stage whose check passes (the frame that raised may be a right
    stage's, given a wrong one's output)."""
    from .selfcheck.runner import run_check  # the checks import the kit's readers: only when a demo stopped

    defined = sorted((stage for stage in stages if stage in namespace), key=lambda stage: STAGES.get(stage, -1))
    return tuple(stage for stage in defined if not run_check(stage, namespace, language).passed)


def blamed_stage(error: BaseException, stages: tuple[str, ...], namespace: dict) -> str:
    """The stage of ``stages`` (those of a demo whose checks fail) to check when the demo raised
    ``error``: the one whose code raised it, from the innermost frame out (exercise 3.1's demo builds
    both modules, then copies: an error in the copy is the copy's); else the last of them in
    teaching order, the one the demo is about."""
    codes = {code: stage for stage in stages if stage in namespace for code in code_objects(namespace[stage])}
    frames = []
    where = error.__traceback__
    while where is not None:
        frames.append(where.tb_frame.f_code)
        where = where.tb_next
    for code in reversed(frames):
        if code in codes:
            return codes[code]
    return max(stages, key=lambda stage: STAGES.get(stage, -1))


def say_stopped(error: Exception, stage: str | None, language: str, passing: Iterable[str] = ()) -> None:
    """One line for a demo that a wrong answer stopped: a name a demo above makes, or the error and
    the stage to check (``stage``), or the stages it runs whose checks all pass (``passing``)."""
    where = error.__traceback__
    while where is not None and where.tb_next is not None:
        where = where.tb_next
    with speaking(language):
        if isinstance(error, NameError) and where is not None and where.tb_frame.f_code.co_name == "<module>":
            print(text("needs.name", name=error.name))
        else:
            # The message's own full stop dropped: the line puts one after it.
            reason = f"{type(error).__name__}: {error}".splitlines()[0][:300].rstrip(". ")
            if stage is None and isinstance(error, AttributeError) and error.name in CONTRACT_LAYERS:
                print(text("needs.stopped_layer_name", reason=reason, name=error.name))
            elif stage is None:
                print(text("needs.stopped_checks_pass", reason=reason,
                           stages=", ".join(f"`{name}`" for name in passing)))
            else:
                print(text("needs.stopped", reason=reason, stage=stage))


ACTIVE: WaitingDemos | None = None


def wait_for_stages(language: str, is_demo: Callable[[str], bool] = is_kit_demo) -> WaitingDemos | None:
    """Register the transformer, and the events that tell it which cells are demos, with the IPython
    shell this code runs in (replacing an earlier one, so that running the setup cell again registers
    it once); None outside IPython. ``is_demo`` tells a demo by its code: the kit's, unless a test
    names its own."""
    global ACTIVE
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return None
    earlier = [transformer for transformer in shell.ast_transformers
               if type(transformer).__name__ == WaitingDemos.__name__]
    shell.ast_transformers[:] = [transformer for transformer in shell.ast_transformers if transformer not in earlier]
    for transformer in earlier:
        for event, callback in (("pre_run_cell", "cell_starts"), ("post_run_cell", "cell_ends")):
            with contextlib.suppress(ValueError, AttributeError):  # one from before this module had events
                shell.events.unregister(event, getattr(transformer, callback))
    ACTIVE = WaitingDemos(shell.user_ns, language, is_demo)
    shell.ast_transformers.append(ACTIVE)
    shell.events.register("pre_run_cell", ACTIVE.cell_starts)
    shell.events.register("post_run_cell", ACTIVE.cell_ends)
    return ACTIVE
