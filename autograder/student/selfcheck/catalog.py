"""Every student-facing word of the self-checks, and the language they speak while a check runs.

The English is here; translations keep the keys and the {fields} in
``locales/<language>/selfcheck.json`` of this package. Code such as `causal_mask(4)` inside
a message is not translated. A hint that names a known mistake uses the mistake's id and its
text from ``mistakes`` (the text the grader's feedback uses too), so each is
written and translated once.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
from collections.abc import Iterator, Mapping

from .. import language as languages
from ..mistakes import MISTAKES
from .hints import TIER_TEXTS

MESSAGES: dict[str, str] = {
    # The line a check prints.
    "passed": "✅ {stage} passed its public check",
    # Said after the verdict: what the check found that the grader does not charge (worth_fixing.py).
    "worth_fixing": "Not graded, but worth fixing: {notes}",
    # Said after the verdict when the check ran a definition the grader ignores (answer_cell.py).
    "defined_elsewhere": ("⚠️ This check ran the {stage} written in another cell (the one with `{line}`). Only"
                          " the ✏️ cell of {stage} counts for your grade, and that other cell is ignored: move your"
                          " code into the ✏️ cell, run it, and save the notebook."),
    "failed": "❌ {stage}: {detail}",
    # The stage reads names made outside the answer cells (notebook_variables.py).
    "reads_other_cells": ("{stage} reads {names}, made in a cell that is not an answer cell (a demo's variable,"
                          " or a helper of your own): each answer cell is graded with only the imports and the"
                          " answer cells' definitions and simple constants, where {names} does not exist. Take"
                          " it from the arguments (in a module, from its own attributes, self.…), or define it"
                          " in an answer cell."),
    "reads_computed_values": ("{stage} reads {names}, which its answer cell sets to a value a call computes (a"
                              " tensor, say): each answer cell is graded with only the imports and the answer"
                              " cells' definitions and simple constants (numbers, strings, torch.float32...),"
                              " never what a call computes, so {names} does not exist there. Compute it inside"
                              " {stage}."),
    # The line under a failed check, and what hint("<stage>", tier) prints.
    "default_written": "Your signature gives {parameter} the default {written}; the notebook's gives {given}.",
    "hint_offer": '   💡 Stuck? hint("{stage}") gives the idea; hint("{stage}", 2) names the functions.',
    "hint_line": "💡 {stage} (hint {tier} of 3): {hint}",
    "hint_found": "What the check found: {finding}",
    "hint_code": ("💡 {stage} (hint 3 of 3), a skeleton to complete: replace each ____ and ... with your code (the"
                  " check has the last word):"),
    "hint_more.2": '   More: hint("{stage}", 2) names the functions that do it.',
    "hint_more.3": '   More: hint("{stage}", 3) shows a skeleton of the code, to complete.',
    "hint_passed": "✅ {stage} passes its public check: no hint needed.",
    # When the course charges for a stage's hints (hint_prices.json): said where a hint is offered.
    "hint_prices": ("   💰 Your instructor charges points for this stage's hints: tier 1 costs {tier1}, tier 2"
                    " {tier2}, tier 3 {tier3}. Only the highest tier you open counts, and never more than the stage"
                    " earns."),
    "hint_cost": " Its price: {points} of this stage's points.",
    "hint_tiers": 'hint("{stage}", {tier}): the hints come in three tiers, 1, 2 and 3.',
    # What a demo cell says when it cannot run yet, or a wrong answer broke it (``waiting_demos``).
    "needs.finish_first": "⏭ Finish `{stage}` first: this demo runs once it works.",
    "needs.waiting": "⏭ waiting for `{stage}`",
    "needs.undefined": "⏭ This demo uses `{stage}`, which is not defined yet: run the cell that defines it first.",
    "needs.name": "⏭ This demo needs `{name}`, which a demo above makes: finish the stages above first.",
    "needs.stopped": ('⚠ This demo stopped at {reason}. It runs your `{stage}` (or a stage it uses):'
                      ' check("{stage}") says what it finds.'),
    "needs.stopped_layer_name": ("⚠ This demo stopped at {reason}. It reads your module's `{name}` by the notebook's"
                                 " name; yours keeps its layers otherwise (fused in one layer, say). That is graded"
                                 " as right, but this demo needs the notebook's names to run."),
    "needs.stopped_checks_pass": ("⚠ This demo stopped at {reason}. It runs your {stages}, whose checks pass: the"
                                  " demo reads something of them the checks do not ask for; the error says what."),
    # What went wrong.
    "unknown_stage": "there is no stage called {stage!r}; the stages are: {known}",
    "unknown_stage_near": "there is no stage called {stage!r}; did you mean {suggestion!r}?",
    "no_stage": "say which stage to check, for example check({example!r}); the stages are: {known}",
    "not_defined": "not defined yet: run the cell that defines {stage}, then run this check again",
    "calls_undefined_stage": ("{stage} calls {called}, which is not defined yet: run the cell that defines"
                              " {called} (its ✏️ cell, even when it comes further down), then run this check again"),
    "not_defined_syntax": (
        "not defined: the cell that defines {stage} stopped before defining it, because Python cannot"
        " read its line {line} ({error}); fix that line, run the cell, then run this check again"),
    "not_implemented": (
        "not implemented yet: replace the `raise NotImplementedError(...)` line(s) in its answer"
        " cell with your code"
    ),
    "not_implemented_elsewhere": (
        "not implemented yet: it stopped at NotImplementedError({reason!r}); finish that part first"
    ),
    "raised": "raised {error_type}: {error}",
    "what_raised": "{what} raised {error_type}: {error}",
    "not_tensor": "{what} should be a torch.Tensor, got {got}.",
    "not_tensor_none": "{what} should be a torch.Tensor, got None (is a `return` missing?)",
    "shape": "{what}: expected shape {expected}, got {got}.",
    "dtype": "{what}: expected dtype {expected}, got {got}.",
    "device": "{what}: expected a tensor on the {expected} device, got {got}.",
    "values": "{what}: expected {expected}, got {got}.",
    "values_where": "{what}: expected {expected}, got {got}: {where}.",
    # What the check found, said after the values in one sentence without code (``found_text``).
    "likely": "{detail} Likely mistake: {said}",
    # A stage that calls another stage of the student's whose own check fails (as the grader says it).
    "calls_failing_stage": ("{stage} calls your {stages}, whose own check fails too: fix {stages} first, then run"
                            " this check again to see what is left in {stage} itself. ({stage} is graded with"
                            " correct code standing in for {stages}, so a mistake there costs points only in"
                            " {stages}.)"),
    # The last two names of a list ("softmax_naive and attention_scores").
    "list.and": "{first} and {last}",
    "raised_at": "{detail} (in your line `{line}`)",
    # Where a wrong output differs from the expected one (differences.py).
    "diff.factor": "every value is {factor} times the expected one (the expected divided by {inverse})",
    "diff.columns": "the expected columns (last dimension) in the order {order}, where {right} is right",
    "diff.rows": "the expected rows (the dimension before the last) in the order {order}, where {right} is right",
    "diff.normalised": ("each row (last dimension) sums to 1, as attention weights do, where the expected rows do not:"
                        " the output was normalised (a softmax, say) where it should not be"),
    "diff.some_rows": "rows {rows} (the dimension before the last) differ, the others are right",
    "diff.some_slices": "the entries at indices {indices} of dimension {dim} differ, the others are right",
    "attribute": "{what}: expected an attribute `{name}` of type {expected}, got {got}.",
    "plain_tensor": ("{what} keeps the tensor `{name}` as a plain attribute, not a registered buffer, so it"
                     " would stay behind when the module moves to another device."),
    "dropout_not_called": ("{call} in training mode never calls self.dropout, and its output is the same"
                           " as in eval mode: nothing is dropped (the demos read the attention weights"
                           " where they pass through self.dropout)."),
    "gpu_raised": "{what}, with its inputs on a GPU, raised {error_type}: {error}",
    "gpu_mixed_devices": "{what}, with its inputs on a GPU, stopped: torch refused to mix tensors on two devices.",
    "gpu_result": ("{what}, with its inputs on a stand-in GPU (fake tensors that check devices as a GPU does):"
                   " expected the result on that GPU, like its inputs, got a tensor on the {got}."),
    "instances_start_alike": (
        "{what}, built twice one after the other, starts with the same {name} both times: each module"
        " must draw its own numbers from PyTorch's random stream, which moves on between the two, so that"
        " only the caller's seed fixes them. A seed set inside the constructor (torch.manual_seed) or a"
        " generator of its own makes every module alike: leave the seeding to the caller."),
    "random_between_calls": (
        "{what}, called twice on the same input, returned other values the second time: something random"
        " runs in its forward (a dropout, say), though this module has none: the same input must always give"
        " the same output."),
    "no_gradient": "after {call}(x).sum().backward(), no gradient reached {parameters}.",
    "not_torch_rand": ("{what}: `{name}` holds {value} at {index}, a number torch.rand never draws (it draws from"
                       " [0, 1)), so it was filled another way and a seed cannot give the book's numbers."),
    "param_shape": "{what}: `{name}` should have shape {expected}, got {got}.",
    "not_registered": ("{what}: `{name}` is not among the module's parameters (module.parameters() does not list it),"
                       " so an optimiser, .to(device) and state_dict() all miss it."),
    "no_raise": "{what} should raise {expected}, but it returned normally.",
    "wrong_raise": "{what} should raise {expected}, but it raised {got}.",
    "note.future_not_exactly_zero": ("{what} gives the future weights tiny values (up to {largest}), not exactly 0:"
                                     " hide the future scores with -inf rather than a large negative number, and the"
                                     " softmax makes them exactly 0."),
    "note.creation_order": ("{what} creates its parameters in the order {got}, the notebook in the order {expected}:"
                            " under torch.manual_seed each starts from other random numbers, so the demos print"
                            " other values than the book does. This costs no points."),
    "note.shared_storage": ("{what} leaves {names} sharing memory with sa_v2's weights: a later change to"
                            " sa_v2's weights changes them too, so training one module changes the other (copy"
                            " the values, as copy_ under torch.no_grad() or .clone() does). This costs no points."),
    "note.fused_projections": ("{what} keeps its query, key and value projections fused in one layer, `{name}`,"
                               " where the notebook names them W_query, W_key and W_value: code that reaches the"
                               " weights by those names, as exercise 3.1's copy and the book's loader of GPT-2's"
                               " weights do, will not find them. This costs no points."),
    "called_again_raised": ("{what} raised {error_type} on x of shape {shape} when called right after a call on x"
                            " of shape {before}, though a new module with the same weights answers that input:"
                            " {error}."),
    "state_in_globals": ("{stage} changes {names}, kept outside the function: what one call leaves there, the"
                         " next call sees, so the same input can give another output from the second call on."),
    "state_between_calls": ("{stage}'s forward changes {names}, which it also reads: what one call leaves there,"
                            " the next call sees, so the same input can give another output from the second call on."),
    "note.copy_frozen": ("{what} leaves {names} frozen (requires_grad=False): training would never change them."
                         " Switch autograd off for the copy itself, with torch.no_grad(), and leave the parameters"
                         " trainable. This costs no points."),
    # The grader's worth_fixing.dtype (autograder/findings/english.py), word for word: both say it for no points.
    "note.dtype": ("{what} returns {result} for {inputs} inputs (make each new tensor with the inputs' dtype,"
                   " dtype={argument}.dtype, and keep it: no .float(), no tensor rebuilt from Python numbers)."
                   " This costs no points."),
    "note.copy_returns": ("{what} returns a value where the notebook's copy returns nothing (None): it changes"
                          " sa_v1 in place, so there is nothing to give back. This costs no points."),
    "note.python_loop": ("{what} handles the tokens one by one (its work grows with the number of tokens, as a"
                         " Python loop over them does: {calls} torch calls for {tokens} tokens, {more_calls} for"
                         " {more_tokens}), where the notebook asks for none: one matrix product computes them all at"
                         " once, and runs fast on a GPU. This costs no points."),
    "weights_without_softmax": "{what} returns the running mean, but no softmax made its weights.",
    "note.renormalised": ("{what} normalises a second time after its softmax, where the notebook asks for one"
                          " pass: masked with -inf before the softmax, the future gets exactly 0 and the rows sum"
                          " to 1 with no second division. This costs no points."),
    "note.no_matrix_product": ("{what} computes the running mean with no matrix product, where the notebook asks"
                               " for one: a (T, T) matrix of weights times x, the form the next stages turn into"
                               " attention. This costs no points."),
    "note.no_buffer": ("{what} registers no buffer for its mask, where the notebook registers the mask once as a"
                       " buffer: a buffer moves with the module to another device and is saved with it. This"
                       " costs no points."),
    "note.dropout_name": ("{what} keeps its dropout layer as `{name}`, where the notebook names it `dropout`:"
                          " the notebook's demos read the attention weights where `dropout` receives them, and"
                          " will not find them. This costs no points."),
    # What a named mistake looks like, for the mistakes whose text names the fix before the first colon
    # (the others' part before it says so already: ``found_text``).
    "found.super_init_first": ("Something was assigned or registered in __init__ before nn.Module was set up, so the"
                               " module has nowhere to keep it."),
    "found.linear_weight_untransposed": ("An nn.Linear layer's weight was multiplied with x by hand, but it is stored"
                                         " the other way round, (d_out, d_in)."),
    "found.valid_p_rejected": "A valid probability (p of 0 or 1) was rejected.",
    "found.half_power_precedence": (
        "The half power was read as a division: the scores were divided by twice d_k (or by half of it), not by"
        " the square root of d_k."),
    "found.weights_transposed": (
        "The weights that mixed the tokens are the transpose of the right ones, so each output mixes the tokens"
        " with another query's weights."),
    "found.left_torch_for_numpy": "The work went through numpy, which lives on the CPU and outside autograd.",
    "found.heads_summed": "The heads' outputs were added up (or averaged) instead of placed side by side.",
    "found.one_head_of_two_features": "The exercise asks for two heads whose outputs, side by side, make 2 features.",
    "found.dot_needs_vectors": "torch.dot takes two 1-D vectors only.",
    "found.transpose_fixed_dims": ("A transpose names dimensions counted from the front, which are different ones with"
                                   " and without batch or head dimensions."),
    "found.sdpa_mask_and_is_causal": "F.scaled_dot_product_attention was given both a mask and is_causal.",
    "found.dropout_argument_ignored": ("The dropout layer does not use the dropout probability the module was"
                                       " built with."),
    "found.parameters_as_layers": "The weights are kept in layers, not in the parameter matrices this module asks for.",
    "found.parameters_plain_tensors": ("The weights are plain tensors, not parameters, so the module does not list"
                                       " them."),
    "found.dropout_in_place": "The dropout works in place on the softmax's output, which backward needs.",
    "found.gpt2_qkv_bias": "The query, key and value projections have biases, which this exercise leaves out.",
    "found.gpt2_dropout": "The exercise asks for GPT-2 small's attention without dropout.",
    "found.gpt2_head_count": "The number of heads, or the size of each, differs from GPT-2 small's.",
    "found.mean_over_all_dims": "The mean was taken over every dimension at once, tokens and features together.",
    "found.dropout_fixed_seed": ("Without a generator the mask is the same at every call: the function fixes the random"
                                 " numbers itself (a seed set inside it)."),
    # What was looked at, and what was expected of it.
    "what.query_journey": "{call} (the attention scores of 'journey')",
    "what.other_sizes": "{call} for {tokens} tokens of size {size}",
    "what.row_journey": "row 1 (query 'journey') of {call}",
    "what.symmetric": "{call} (a symmetric matrix)",
    "what.on_shape": "{call} on x of shape {shape}",
    "what.argument_of_shape": "{function}({argument} of shape {shape}{rest})",
    "what.called_again": ("{call} on x of shape {shape}, called right after a call on x of shape {before}"
                          " (compared with what a new module with the same weights gives on it)"),
    "what.sums_along": "the sums along dim={dim} of {call}",
    "what.row": "row {row} of {call}",
    "what.rows": "rows {rows} of {call}",
    "what.seeded": "{call} under torch.manual_seed({seed}), on the running example",
    "what.after_copy": "x @ sa_v1.{name} after the copy, next to sa_v2.{name}(x)",
    "what.the_copy": "sa_v1 after the copy",
    "what.above_diagonal": "the entries above the diagonal of {call}",
    "what.row_sums": "the row sums of {call}",
    "what.kept_values": "the values kept by {call}",
    "what.zero_fraction": "the fraction of zeros made by {call}",
    "what.same_seed": "two calls with generators seeded alike",
    "what.dropped_along": "the elements {call} drops along dim {dim}",
    "what.two_calls": "two calls of {call} without a generator, one after the other",
    "what.float64": "{call} on float64 inputs",
    "what.huge_hidden": "{call} with every hidden score set to 1000, next to the same call on the scores as they were",
    "what.argument_gradient": "the gradient of {call} with respect to attn_weights",
    "what.backward": "{call}(x).sum().backward(), in training mode",
    "what.argument_after": "{argument} of {call}, after the call",
    "what.longer_context": "{call} with context_length=10, on 6 tokens",
    "what.no_leak": "the outputs of tokens 0 to {position} after changing the tokens from {later} on",
    "what.no_leak_first": "the output of token 0 after changing the tokens from {later} on",
    "what.batch_first": "the output of sequence 0 of the batch after changing the other sequences",
    "what.batch_later": "the outputs of sequences 1 on of the batch after changing sequence 0",
    "what.eval_mode": "{call} in eval mode",
    "what.dropped": "what {call} passes through self.dropout in training mode (the attention weights)",
    "what.demo_weights": "what {call} passes through self.dropout, which the demos draw as its attention weights",
    "what.split_entry": "split_heads(x, 3)[{b}, {h}, {t}] (head {h} of token {t})",
    "what.merge_entry": "the features of head {h} in merge_heads(x)[{b}, {t}] (token {t})",
    "what.error_message": "the ValueError message",
    "what.parameter_count": "the number of parameters of gpt2_small_attention()",
    "what.gpt2_setting": "the {setting} of gpt2_small_attention()",
    "what.built_setting": "the {setting} that {call} builds its {class_name} with",
    "what.wrapper_output": "the output of the MultiHeadAttentionWrapper that {call} builds",
    "is.features_per_token": "{count} features per token, shape (b, T, {count})",
    "is.heads_side_by_side": ("{count} features per token ({heads} heads of d_out={d_out}, side by side),"
                              " shape (b, T, {count})"),
    "is.all": "all {value}",
    "is.gpt2_value": "GPT-2 small's value (Exercise 3.3 gives its settings)",
    "is.about": "about {value}",
    "is.finite": "finite numbers",
    "is.weights": "the attention weights (each from 0 to 1, each row summing to 1)",
    "is.with_row_sums": "{values}, its rows summing to {sums}",
    "is.no_nan": "no NaN",
    "is.none": "None",
    "is.a_bias": "a bias vector",
    "is.the_same_mask": "the same mask",
    "is.each_alone": "each kept or dropped on its own",
    "is.all_together": "all kept or dropped together",
    "is.different_masks": "different masks",
    "is.unchanged": "unchanged",
    "is.changed": "changed",
    "is.buffer": "registered buffer",
    "is.heads": "{count} CausalAttention modules",
    "is.same_module": "one CausalAttention module, listed {count} times",
    "is.module_list": "an nn.ModuleList of {count} heads",
    "is.list_of_length": "{kind} of length {count}",
    "is.nothing": "nothing",
    "is.view": "a view of x",
    "is.copy": "a copy",
    "is.names_sizes": "a message naming {a} and {b}",
    "is.names_value": "a message naming the p given, {value}",
    "is.module": "an nn.Module",
    "is.empty_tensor": "an empty tensor",
    "is.non_finite": "({count} not finite, the first {value} at {index})",
    "is.overflow": "the formula's own result, which is not finite where exp overflows",
    "is.from_formula": "the formula, with exp and a sum",
    "is.library_softmax": "a call of one of torch's softmax functions",
    "is.by_hand": "a mask you draw yourself, and the survivors rescaled",
    "is.library_dropout": "a call of torch's dropout",
    # The figure of a recognised mistake: what each panel is, and what to look at.
    "figure.yours": "your attention weights",
    "figure.right": "the right attention weights",
    "figure.key": "key (the token attended to)",
    "figure.query": "query",
    "figure.future": "The upper triangle is lit: tokens attend to tokens that come after them.",
    "figure.columns": "Each column sums to 1, not each row: the weights were normalised over the wrong dimension.",
    "figure.pale_rows": ("Pale rows: after the future is zeroed, the rows no longer sum to 1 (the sums are at the"
                         " right)."),
    # Hints for what a check found, shown only when a student asks (hint("<stage>")) and instead of
    # the stage's idea (hints.py); a finding that matches a known mistake uses the mistake's text.
    "hint.rows_sum_to_one": (
        "Each slice along `dim` must sum to 1: divide exp(x) by its sum over `dim`"
        " (keepdim=True so the shapes broadcast)."
    ),
    "hint.v1_params": (
        "Create self.W_query, self.W_key and self.W_value, in that order, each an nn.Parameter"
        " holding torch.rand(d_in, d_out)."
    ),
    "hint.v2_layers": (
        "Create self.W_query, self.W_key and self.W_value, in that order, as linear layers that take"
        " d_in features to d_out, each with a bias only when qkv_bias is true."
    ),
    "hint.mask_bool": "The mask marks each position hidden or not: return a tensor of that dtype.",
    "hint.mask_device": "Create the tensor on `device`, e.g. torch.ones(..., device=device).",
    "hint.sizes_from_input": (
        "Read every size from the input (T = x.shape[-2]): a function must work for any length, not only"
        " for the demo cell's T = 8, which it cannot see when it is called elsewhere."
    ),
    "hint.naive_overflows": (
        "softmax_naive is the formula as it stands, so it overflows for [1000, 1001, 1002], as the demo shows;"
        " yours gives finite weights there: it already subtracts something (that is softmax_stable's job,"
        " next), or it calls a softmax of torch's."
    ),
    "hint.input_dtype": (
        "Create the tensors you need with the input's dtype and device, e.g. torch.zeros(T, T,"
        " dtype=x.dtype, device=x.device): float64 inputs must work too."
    ),
    "hint.gpu": (
        "Make every tensor you need on the input's device (device=x.device, torch.*_like, or a registered"
        " buffer in a module) and keep the computation in torch: .cpu(), .numpy() and tensors made without"
        " a device leave the GPU."
    ),
    "hint.future_zero": "Every weight above the diagonal (a future token) must be exactly 0.",
    "hint.dropout_rate": "Each element should be zeroed with probability p.",
    "hint.dropout_generator": (
        "Draw every random number from the generator you are given, so that a seeded generator gives the"
        " same mask every time."
    ),
    "hint.dropout_all": "When p == 1 every element is dropped: return torch.zeros_like(x).",
    "hint.dropout_range": "Raise ValueError with a clear message when p is outside [0, 1].",
    "hint.causal_layers": (
        "Create W_query, W_key, W_value (in that order) as nn.Linear(d_in, d_out, bias=qkv_bias)"
        " and self.dropout = nn.Dropout(dropout)."
    ),
    "hint.eval_dropout": "In eval mode nn.Dropout is the identity; apply it through self.dropout.",
    "hint.each_call_alone": ("Compute each call from its own input only: read the sizes from x every time, and keep"
                             " nothing in the module (or in a global) from one call to the next."),
    "hint.demo_weights": (
        "The demos read the attention weights where they pass through self.dropout: call self.dropout on the"
        " weights that the softmax gives (after the mask), and on nothing computed before them."
    ),
    "hint.wrapper_heads": (
        "self.heads must be an nn.ModuleList of num_heads CausalAttention modules: a plain Python"
        " list would hide their parameters from the module."
    ),
    "hint.split_view": (
        "Your result is a copy, while a view shares the memory of x: find the step that copies"
        " (reshape after a transpose, contiguous, clone) and split with view and transpose alone."
    ),
    "hint.split_error": (
        "The features must split evenly into the heads, and a ValueError that names both sizes says"
        " when they do not: raise ValueError when d_out % num_heads != 0, naming both numbers in the"
        " message."
    ),
    "hint.merge_contiguous": (
        "view() needs contiguous memory after a transpose: call .contiguous() before .view()."
    ),
    # Tier 1's fix in words, for the named mistakes whose own fix shows code or a formula (``remedy``).
    "remedy.no_sqrt_scaling": (
        "Shrink the scores by the factor that keeps their spread from growing with the size of each key "
        "vector (the √d_k section works it out); where a softmax follows, scale before it."),
    "remedy.scaled_by_d_k": (
        "The right scale grows more slowly than the key size itself: recall how the spread of a dot product "
        "grows with the length of the vectors."),
    "remedy.half_power_precedence": (
        "Python raises to a power before it divides: group the exponent so that the whole fraction is the "
        "power."),
    "remedy.dropout_not_rescaled": (
        "Rescale the elements that survive, so that each element keeps, on average, the value it had without "
        "dropout."),
    "remedy.dropout_scaled_by_p": (
        "The survivors' factor comes from the probability of keeping an element, not from the probability of "
        "dropping it."),
    "remedy.dropout_keep_probability": (
        "p is the probability of zeroing an element: compare your random numbers with p so that an element "
        "survives with the other probability."),
    "remedy.dropout_multiplied_by_keep": (
        "The survivors must make up for the dropped elements: work the expectation above the stage out again."),
    "remedy.dropout_in_eval": (
        "Outside training, give the input back unchanged: dropout only acts while training."),
    "remedy.softmax_missing_keepdim": (
        "Keep the reduced dimension in each reduction along dim (the sum, and the maximum where there is one), "
        "so that its result lines up with x when you subtract or divide."),
    "remedy.view_needs_contiguous": (
        "Lay the memory out in the new reading order before you view it, or use the reshaping function that "
        "copies when it must."),
    "remedy.mask_not_bool": (
        "Build the mask as a boolean tensor, True where a score is hidden."),
    "remedy.device_not_followed": (
        "Create each new tensor on the device of the input (in a module, a buffer moves with it)."),
    "remedy.dtype_not_followed": (
        "Create each new tensor with the dtype of the input."),
    "remedy.mask_filled_with_zero": (
        "Give the hidden positions the score that a softmax always turns into exactly 0, whatever the other "
        "scores of the row."),
    "remedy.heads_concat_wrong_dim": (
        "Join the heads along the features, so that every token gets the features of all heads side by side."),
    "remedy.copy_needs_no_grad": (
        "Switch autograd off while you copy: copying weights is not a step it should record."),
    "remedy.copy_without_transpose": (
        "A layer keeps its weight in another layout than v1's matrices: compare the two shapes and bring each"
        " weight into v1's layout."),
    "hint.mha_layers": (
        "Create W_query, W_key, W_value as nn.Linear(d_in, d_out, bias=qkv_bias), then"
        " out_proj = nn.Linear(d_out, d_out), in that order."
    ),
}



def _sentence(text: str) -> str:
    """A mistake's text as a hint that follows a full stop: with a capital letter, unless it starts
    with code (`nn.Linear`, `x.max`), which keeps its spelling."""
    return text if re.match(r"\w+(?:[.(_]|\s*[=@])", text) else text[:1].upper() + text[1:]


@functools.cache
def texts(language: str) -> Mapping[str, str]:
    """The self-checks' messages and the mistakes' hints, in ``language``."""
    mistakes = languages.messages(language, "mistakes", MISTAKES)
    return {**{key: _sentence(text) for key, text in mistakes.items()},
            **languages.messages(language, "selfcheck", MESSAGES)}


# The language of the check being run: its notebook's.
_language: contextvars.ContextVar[str] = contextvars.ContextVar("selfcheck_language",
                                                                default=languages.DEFAULT_LANGUAGE)


def _in_force() -> Mapping[str, str]:
    return texts(_language.get())


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Within the block, the checks' messages are in ``language``."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)


IDEA = "idea"  # a finding with no fix of its own: hint(stage) gives the stage's idea


def hint_text(key: str) -> str | None:
    """A finding's hint (``hint.*``) or a known mistake's (its id), in the language in force;
    None for ``IDEA``."""
    return None if key == IDEA else _in_force()[key]


TIER_KEYS = {1: "idea", 2: "functions", 3: "code"}  # the key of each tier's text in hints.json


@functools.cache
def _hint_tiers(language: str) -> Mapping[str, str]:
    return languages.messages(language, "hints", TIER_TEXTS)


def holds_code(text: str) -> bool:
    """Whether ``text`` shows code (a call with arguments, a product, a transpose, an argument, an
    assignment, an expression in backticks) rather than saying in words what is wrong."""
    return bool(re.search(r"\w\s*@\s*[\w(]|\.m?T\b|\w\s*=\s*[\w.\-]", text)
                or any(not span.isidentifier() for span in re.findall(r"`([^`]*)`", text))
                or any(not call.group(0).startswith("sqrt(") for call in re.finditer(r"[\w.]+\([^()]*\)", text)))


def diagnosis(finding: str) -> str | None:
    """A finding's first tier: what is wrong, the part before its fix (the fix follows the first
    colon); None when even that part shows code (tier 1 is words only)."""
    said = _said_and_fix(finding)[0].rstrip(" .。")
    return None if holds_code(said) else said + ("。" if re.search(r"[\u4e00-\u9fff]", said) else ".")


def remedy(finding: str) -> str | None:
    """A finding's fix in words: the part after its first colon (what ``diagnosis`` leaves out),
    as a sentence; None when it has none, or when it shows code or the formula to write, such as
    (1 - p) (tier 1 is words only, and a formula the notebook asks students to derive is the answer)."""
    fix = _said_and_fix(finding)[1].strip()
    return None if not fix or holds_code(fix) or _FORMULA.search(fix) else _sentence(fix)


def words_fix(mistake: str | None) -> str | None:
    """The fix of ``mistake`` in words (``remedy.<mistake>``), for a mistake whose own text shows
    code or a formula; None where it has none."""
    return _in_force().get(f"remedy.{mistake}") if mistake else None


# Arithmetic in parentheses: (1 - p), (d_out / num_heads).
_FORMULA = re.compile(r"\(\s*[\w.]+\s*[-+*/]\s*[\w.]+\s*\)")


def _said_and_fix(finding: str) -> tuple[str, str]:
    """A finding cut at its first colon: what is wrong, then its fix ("" when it has none)."""
    found = re.search(r":\s|：", finding)
    return (finding[: found.start()], finding[found.end():]) if found else (finding, "")


def found_text(mistake: str) -> str | None:
    """What the named mistake ``mistake`` looks like, in one sentence without code, for the check's
    own line (the grader's "Likely mistake" says as much): its text's part before the fix
    (``diagnosis``), or its ``found.*`` sentence where that part is the fix itself; None for none."""
    catalog = _in_force()
    said = catalog.get(f"found.{mistake}")
    return said if said is not None else diagnosis(catalog[mistake]) if mistake in catalog else None


def tier_text(stage: str, tier: int) -> str:
    """The hint of ``stage`` at ``tier`` (1 the idea, 2 the tools, 3 the skeleton to complete), in
    the language in force (a skeleton's code is the same in every language, its comments translated)."""
    return _hint_tiers(_language.get())[f"{TIER_KEYS[tier]}.{stage}"]


# A space between two Chinese characters (or their punctuation): what a field's own text leaves
# where a template set it apart from code or numbers ("期望 {expected}" filled with words).
_HAN = r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]"  # Chinese characters and their punctuation
_SPACE_BETWEEN_HAN = re.compile(rf"(?<={_HAN})[ \t]+(?={_HAN})")
# A full stop that ends a field's sentence, right before the template's own pause ("…]。；可能的错误"):
# the template's mark alone is kept.
_STOP_BEFORE_PAUSE = re.compile(r"。(?=[；，：])")


def text(key: str, **fields) -> str:
    """The message ``key`` with its fields, in the language in force, with no space left between
    two Chinese characters where a field's words meet the template's, nor a full stop doubled by
    the template's own punctuation."""
    return _STOP_BEFORE_PAUSE.sub("", _SPACE_BETWEEN_HAN.sub("", _in_force()[key].format(**fields)))
