"""Every sentence and phrase of the findings, in English: one table, one key each.

The hidden tests (through ``autograder.hidden``), the grading plugin, the worker sessions and the
notebook reader report what they find as ``Finding``s keyed here; nothing else words a finding.
Translations live in ``autograder/locales/<language>/findings.json`` with the same keys and
fields (tests/test_translations.py checks both).

A key without a dot is a sentence; ``what.*``, ``problems.*`` and ``doing.*`` are phrases that go
inside one (as a nested finding in a field); ``hint.likely_mistake`` follows a sentence that names
a mistake. A plain field holds what is never translated: code (a call such as
``softmax_naive(x, dim=1)``, a name), a shape, a number, or text the student's code wrote.
"""

from __future__ import annotations

SENTENCES: dict[str, str] = {
    # Failure messages. Each one starts a test's message; a mistake hint may follow it.
    # Comparing a tensor (autograder/compare.py).
    "not_tensor": "{what} returned a {type_name}, expected a torch.Tensor.",
    "wrong_shape": "{what}: returned shape {actual_shape}, expected shape {expected_shape}.",
    "wrong_dtype": "{what}: returned dtype {actual_dtype}, expected {expected_dtype}.",
    "wrong_device": (
        "{what}: returned a tensor on device '{actual_device}', expected '{expected_device}' (create"
        " new tensors on the input's device, and register fixed tensors as buffers)."),
    "not_finite": (
        "{what}: {count} of {total} values are NaN or infinite (the first at index {index}, where you"
        " returned {value})."),
    "values_differ": (
        "{what}: {count} of {total} values differ from the reference; the largest difference,"
        " {difference}, is at index {index}, where you returned {value}."),
    "entries_wrong": (
        "{what}: {count} of {total} entries are wrong; the first is at index {index}, where you"
        " returned {value}."),
    # Modules (autograder/hidden_checks.py).
    "parameters": "{what}: {problems} (parameter names and shapes are part of the assignment).",
    "plain_attributes": (
        "{what} keeps tensors as plain attributes ({names}): they stay on the CPU when the module"
        " moves to a GPU; register them with self.register_buffer(...)."),
    "plain_weights": (
        "{what} keeps its weights as plain tensors ({names}): they stay on the CPU when the module"
        " moves to a GPU, because the module does not know them as parameters."),
    "no_parameter_gradient": (
        "{what}: after backward, the parameter {name} has no gradient (its .grad is None), so"
        " training would never change it."),
    "no_parameter_gradients": (
        "{what}: after backward, the parameters {names} have no gradient (their .grad is None), so"
        " training would never change them."),
    "raised_when_called_again": (
        "{what} raised {error_type} on x of shape {shape} when it was called right after a call on x"
        " of shape {before}, though a new module with the same weights answers that input: {message}"),
    "future_leak": (
        "{what}: changing only the tokens after position {position} changed the outputs up to"
        " position {position}, which must not see them."),
    # 01_attention_scores: the softmaxes "from the formula".
    "library_softmax_called": "{what} calls {functions}: this stage asks for the formula itself.",
    "library_dropout_called": "{what} calls {functions}: this stage asks you to drop and rescale by hand.",
    "naive_does_not_overflow": (
        "{what} gave finite weights, but the formula as it stands overflows there (exp(1000) is inf in"
        " float32, and inf / inf is nan), as the notebook's demo shows: softmax_naive computes the formula"
        " exactly as written, and keeping it finite is softmax_stable's job."),
    # 02_self_attention.
    "not_a_parameter": (
        "{what} is no longer a parameter of {module}: wrap the copied matrix in nn.Parameter, or"
        " copy into the existing one."),
    # 03_causal_attention: dropout.
    "zero_fraction": (
        "{what}: zeroed {fraction} of the elements; with p = {p} about {expected_fraction} should"
        " be zero."),
    "dropped_together": (
        "{what}: the elements along dim {dim} were kept or dropped all together ({kept} of {total}"
        " groups kept); each element should be kept or dropped on its own."),
    "valid_p_rejected": "{what} raised a ValueError, but p = {p} is a valid probability.",
    "wrong_error_for_p": "{what} raised {error_type}; raise a ValueError that says p must be between 0 and 1.",
    "matrices_not_copied": (
        "{call} left {names} as they were: copy all three, W_query, W_key and W_value, each from the"
        " layer with the same name in sa_v2."),
    "evidence.same_in": " The same holds for {names}.",
    "copied_into_another_module": (
        "{call} left sa_v1's matrices as they were, and returned another module that holds the right copy."),
    "source_changed_by_copy": (
        "{call} changed sa_v2.{name}: the copy must only read sa_v2, and write into sa_v1."
    ),
    "backward_fails_in_training": (
        "{call}: in training mode (dropout = {p}), backward failed because a tensor it needs was modified by an"
        " in-place operation."
    ),
    "no_error_for_p": "{what} returned a result; a probability outside [0, 1] should raise a ValueError.",
    "same_seed_different_masks": "{what} gave different masks for two generators with the same seed.",
    "different_seeds_same_mask": (
        "{what} gave the same mask for generators with different seeds: draw the random numbers"
        " from `generator`."),
    "dropout_on_output": (
        "{what}: the output is not a weighted sum of the values with the dropped-out attention"
        " weights."),
    "batch_mixed": (
        "{what}: changing only the other sequences of the batch changed the output of sequence 0."
    ),
    "batch_carried_over": (
        "{what}: changing only sequence 0 of the batch changed the output of a later sequence."
    ),
    "dropout_renormalised": (
        "{what}: after dropout, every row that kept a weight sums to 1 again (a row that lost them"
        " all is NaN): the survivors were divided by their sum, not scaled by 1 / (1 - p)."
    ),
    # A further fault read off the same output (diagnosis.Explanation.separate): {evidence} says it.
    "fault_seen": "{what}:{evidence}",
    "weights_without_softmax": "{what} returns the running mean, but no softmax made its weights.",
    "instances_start_alike": (
        "{what}, built twice one after the other, starts with the same {name} both times: each module"
        " must draw its own numbers from PyTorch's random stream, which moves on between the two, so that"
        " only the caller's seed fixes them. A seed set inside the constructor (torch.manual_seed) or a"
        " generator of its own makes every module alike: leave the seeding to the caller."
    ),
    "initial_parameters_differ": (
        "{what} built under a seed: its initial {name} is not what torch.rand({shape}) draws there,"
        " in the order W_query, W_key, W_value, as the notebook asks."
    ),
    "same_mask_without_generator": (
        "{what}, called twice without a generator, dropped exactly the same elements both times:"
        " without a generator the mask must come from PyTorch's default random stream, which moves "
        "on at every call."
    ),
    # 04_multi_head_attention.
    "heads_not_module_list": (
        "{call}.heads should be an nn.ModuleList, so that the heads' weights belong to the module."),
    "heads_other_container": (
        "{call}.heads is an nn.{type_name}; the exercise asks for an nn.ModuleList, which numbers"
        " the heads (heads.0, heads.1, ...) as the graded parameter names do."),
    "one_head_listed": ("{call}.heads lists one CausalAttention module {heads} times; it should hold {heads}"
                        " separate ones."),
    "wrong_head_modules": ("{call}.heads should hold {heads} separate CausalAttention modules; the distinct modules it"
                           " holds are {kinds}."),
    "wrong_class": "{what} should return a {class_name}.",
    # A stage graded by how it builds another stage's class (autograder/hidden/stand_ins.py).
    "built_differently": (
        "{what} builds its {class_name} with {parameter}={actual}; the exercise asks for {parameter}={expected}."),
    "wrong_head_count": "{what} should have {expected_heads} heads; it has {heads}.",
    "wrong_feature_count": "{what} gives {features} output features; the exercise asks for 2.",
    "split_copies": (
        "{what} should return a view of x, not a copy: after filling x, the result did not change"
        " with it."),
    "wrong_error_for_heads": (
        "{what} raised {error_type}; raise a ValueError that says d_out must be divisible by"
        " num_heads, and gives both numbers."),
    "no_error_for_heads": (
        "{what} returned a result; {features} features cannot be split into {heads} equal heads, so"
        " it should raise a ValueError."),
    "error_lacks_sizes": "{what} raised a ValueError whose message does not name {sizes}: \"{message}\"",
    # Any function stage.
    "modified_input": (
        "{what} returned the right values but changed its argument {argument} in place, and the"
        " caller still needs it."),
    "modified_input_too": "{what} also changed its argument {argument} in place, and the caller still needs it.",
    # What a wrong answer's values show (autograder/hidden/diagnosis.py): notes after a failure.
    "evidence.all_zeros": " Every value you returned is 0.",
    "evidence.state_in_globals": (
        " {stage} changes {names}, kept outside the function: what one call leaves there, the next call"
        " sees, so the same input can give another output (the same dropout mask, say) from the second"
        " call on. Compute each call from its inputs alone (keep no cache between calls)."),
    "evidence.state_between_calls": (
        " {stage}'s forward changes {names}, which it also reads: what one call leaves there, the next"
        " call sees, so the same input can give another output or shape from the second call on. Compute"
        " each call from its input alone (keep no cache between calls)."),
    "evidence.scores_capped": (
        " Your weights are the softmax of the scores capped at {cap}: every score above it got the same"
        " weight, however large."),
    "evidence.scores_capped_nan_slices": (
        " Your other weights are the softmax of the scores capped at {cap}: every score above it got the same"
        " weight, however large. The slices that came out NaN had every exp underflow to 0 (0 / 0): their"
        " scores were not shifted by their own maximum."),
    "evidence.constant_factor": " Every value is {factor} times the reference's{forms}.",
    "evidence.mistake_times_factor": (
        " Every value is {factor} times what that mistake alone gives: a factor of its own comes on top of it."),
    "evidence.nan_as_mistake": " Its NaN fall exactly where that mistake gives them, and nowhere else.",
    "evidence.random_between_calls": (
        " Called twice on this same input in eval mode, it returned other values the second time: something"
        " random runs in its forward, where the same input must always give the same output."),
    "evidence.softmax_of_mistake": (
        " It is a softmax (along dim {dim}) of what that mistake alone gives: a softmax of its own comes on top"
        " of it."),
    "evidence.forms": " (= {forms})",
    "evidence.no_forms": "",
    "evidence.reshaped": (
        " It holds the reference's values in the same order, but in shape {actual_shape} instead of"
        " {expected_shape}."),
    "evidence.swapped": " It holds the reference's values with dims {first} and {second} swapped.",
    "evidence.zeros_in_eval": (
        " {fraction} of the weights the reference keeps are 0, at other places in each sequence: about the"
        " share p = {p} that a dropout zeroes."),
    "evidence.columns_reordered": (
        " It holds the reference's columns (last dimension) in the order {order}, where {right} is right."),
    "evidence.rows_reordered": (
        " It holds the reference's rows (the dimension before the last) in the order {order}, where {right}"
        " is right."),
    "evidence.rows_differ": " Rows {rows} (the dimension before the last) differ; the others are right.",
    "evidence.slices_differ": " The entries at indices {indices} of dimension {dim} differ; the others are right.",
    "evidence.permuted": " It holds the reference's values with their dims in the order {order}.",
    "evidence.one_row_repeated": (
        " Every row (the dimension before the last) is the reference's row {row}: each row should be"
        " its own query's result, not one query's repeated."),
    "evidence.permuted_then_viewed": (
        " It holds the reference's values with their dims in the order {order}, then viewed as"
        " {shape}: a view or reshape into a layout the data is not in."),
    "evidence.sums_along": " Its values sum to 1 along dim {dim}; they should sum to 1 along dim {expected_dim}.",
    "evidence.not_normalised": (
        " Each slice along dim {dim} is the reference's times a factor of its own, so the slices sum"
        " to {sums} instead of 1."),
    "evidence.sums_to": " Its slices along dim {dim} sum to {sums}, not to 1: it is no softmax.",
    "evidence.factors_along": (
        " Each slice along dim {dim} is the reference's times a factor of its own: {factors} along"
        " dim {along}."),
    "evidence.slices_scaled": " Each slice along dim {dim} is the reference's times a factor of its own.",
    "evidence.softmax_of_right": " It is the softmax (along dim {dim}) of the right result.",
    "evidence.softmax_of_scaled": " It is the softmax (along dim {dim}) of the right result times {factor}.",
    "evidence.softmax_of_rescaled_input": (
        " It is the softmax (along dim {dim}) of x with each slice divided by a number of its own ({divisors}):"
        " dividing changes what a softmax gives, where subtracting one number from a whole slice does not."),
    "evidence.distances": (
        " It is the distance between each pair of tokens (0 on the diagonal), where a score is the"
        " dot product of two tokens."),
    "evidence.squared_distances": (
        " It is the squared distance between each pair of tokens (0 on the diagonal), where a score"
        " is the dot product of two tokens."),
    "evidence.negative_distances": (
        " It is minus the distance between each pair of tokens (0 on the diagonal), where a score is"
        " the dot product of two tokens."),
    "evidence.negative_squared_distances": (
        " It is minus the squared distance between each pair of tokens (0 on the diagonal), where a"
        " score is the dot product of two tokens."),
    "evidence.one_input_row": (
        " It is row {row} of inputs alone, where the context vector weighs every row of inputs by its"
        " attention weight and adds them up."),
    "evidence.one_input_row_largest": (
        " It is row {row} of inputs alone, the token with the largest weight, where the context vector"
        " weighs every row of inputs by its attention weight and adds them up."),
    "evidence.faults_together": (
        " It is exactly what the reference computation gives with {count} mistakes made together: the one"
        " named here, and each other one told in a paragraph of its own."),
    "evidence.repaired_line": (
        " The grader ran this test again with only the line that raised changed as this mistake's fix"
        " says, and it passed: this slip is all the test found, so it costs only its share of {stage}'s"
        " points."),
    "evidence.repaired_lines": (
        " The grader ran this test again with each line that raised changed as its mistake's fix says"
        " (this slip and the ones told below), and it passed: these slips are all the test found, so each"
        " costs only its share of {stage}'s points."),
    "evidence.repaired_then_failed": (
        " The grader ran this test again with the line that raised changed as this mistake's fix says:"
        " the test then ran, and showed the further fault told below. Fix both."),
    "evidence.one_of_faults_together": (
        " together with the mistake told first, this one gives exactly your output, so both are there to fix."),
    "evidence.scores_divided_by": (
        " It is what the attention gives when the scores are divided by {divisor}{forms}; the"
        " reference divides them by {right}."),
    "evidence.kept_scores_divided_by": (
        " On the positions each row keeps, the weights are a softmax of the scores divided by {divisor}{forms};"
        " the reference divides them by {right}."),
    "evidence.scores_divided": (
        " Every value is the scores divided by {divisor}{forms}; the reference divides them by {right}."),
    "evidence.not_scaled": "nothing (this notebook does not scale the scores)",
    "evidence.blocks_out_of_order": (
        " It holds every head's output, but in another order (head 0's should come first): {blocks}."
    ),
    "evidence.block_holds": "features {first} to {last} hold head {head}'s",
    # A further mistake of a catalogue's output that several mistakes give together.
    "evidence.made_together": (
        " your values are exactly what this mistake gives together with the one above: fixing one"
        " alone leaves the other."
    ),
    "evidence.future_changes_past": (
        " Changing only position {later} of the input changed your result at the earlier position"
        " {position}: it sees the future."),
    "evidence.future_keys_change_row": (
        " Changing only entries above the diagonal (later keys) changed row {position} of your result: it"
        " sees the future."),
    "evidence.dim_is_a_size": (
        " — {argument} is {value} here, a size: this tensor's dims run from {low} to {high}."),
    "evidence.misspelt_method": " — {class_name} defines {written}, not {meant}, so PyTorch never calls it.",
    "evidence.did_you_mean": " — {owner} has no attribute {name}; did you mean {suggestion}?",
    "evidence.unknown_keyword": " — {function} takes no keyword {keyword}; did you mean {suggestion}?",
    "evidence.batch_mixed": (
        " Changing only the other sequences of the batch changed your result for sequence 0: the"
        " sequences of the batch are mixed."
    ),
    "evidence.diagonal_times": (
        " Every value off the diagonal is right; each one on it is {factor} times the reference's."),
    "evidence.diagonal_only": " Every value off the diagonal is right; those on it are not.",
    "evidence.rounded_to_decimals": (
        " Every value is the reference's rounded to {decimals} decimals: return the values as computed"
        " (round only what you print)."),
    "evidence.low_precision": (
        " Every value is within {difference} of the reference's: the right values, rounded as half"
        " precision (float16 or bfloat16) rounds them; keep the computation in the input's dtype."),
    "evidence.right_with_reference_weights": (
        " Given the reference's weights where it keeps its own, it returns the reference's output on"
        " this call: here, only the way it keeps its parameters is wrong."),
    "evidence.right_without_what_it_lacks": (
        " Given the reference's weights where it keeps its own, it returns what the reference gives"
        " without the parameters it lacks: what it computes with the parameters it has is right."),
    "evidence.right_with_heads_alike": (
        " Given one head's weights, it returns what the reference's heads give when they all have those"
        " weights: what is wrong is that its heads are one module (every head computes the same output); the"
        " order it joins them in cannot show while they are alike."),
    "evidence.weights_placed": (
        " Given the reference's weights where it keeps its own, it still has the faults that follow."),
    "evidence.right_in_eval": " After .eval() it returns the reference's output: only training mode changes it.",
    "evidence.parameter_changed": (
        " — after one forward and backward pass, {name} no longer holds the value it was given: the"
        " forward pass changed it."),
    "evidence.batch_carried_over": (
        " Changing only sequence 0 of the batch changed your result for a later sequence: something"
        " computed for one sequence carries over into the next."
    ),
    "evidence.argument_written": (
        " — the call changed its argument {argument} in place, as writing each result into it does."),
    "evidence.default_changed": (
        " — your signature gives {parameter} the default {written}; the notebook's gives {given}."
    ),
    "evidence.dropout_layers_p": (
        " — the module was built with dropout = {p}, but its dropout layers drop with {layers}."
    ),
    "evidence.registered_result_assigned": (
        " — {name} is assigned what {method} returns, None, which takes the place of what {method}"
        " registered."
    ),
    "evidence.view_sizes": " — the sizes {shape} make {asked} elements, and the tensor has {size}.",
    "evidence.hard_coded_size": " — {call} makes a tensor of the fixed size {size}, the size torch quotes.",
    "evidence.hard_coded_loop": " — {call} counts to the fixed number {size}, where the input has {got} along the"
                                " dim torch quotes.",
    "evidence.arguments_out_of_order": (
        " — {call} passes {argument} where {function} takes {meant}: its parameters are, in this"
        " order, ({parameters})."),
    # What was checked: the {what} of a message or of another phrase.
    "what.for_shape": "{call} for {argument} of shape {shape}",
    "what.for_queries_and_keys": "{call} for queries of shape {queries_shape} and keys of shape {keys_shape}",
    "what.on_x": "{what} on x of shape {shape}",
    # One module called twice in a row, compared with a new module of the same weights.
    "what.called_again": (
        "{what} on x of shape {shape}, called right after a call on x of shape {before} (compared with"
        " what a new module with the same weights gives on it)"),
    # A wrapper whose heads are one module, run with every head of the reference alike.
    "what.heads_alike": "{what}, with every head given head 0's weights (your heads are one module),",
    "what.heads_own_names": "{what}, with the reference's heads given to yours in their order, under your names,",
    # A result whose shape, dtype or device was wrong, read in the reference's (its other faults).
    "what.read_as": "{what}, read in shape {shape} and dtype {dtype}",
    "what.read_transposed": "{what}, read with its last two dims swapped back, in shape {shape}",
    "what.read_in_order": "{what}, its values read in order in shape {shape}",
    "what.first_returned": "{what}, the first of the values it returned",
    "what.own_weights": "{what}, with the weights it made itself",
    "what.on_meta": "{what} on a stand-in GPU (fake tensors that check devices as a GPU does), for x of shape {shape}",
    "what.function_on_meta": (
        "{call} on a stand-in GPU (fake tensors that check devices as a GPU does), for x of shape {shape}:"
        " every tensor it creates should follow x's device"),
    "what.future_changed": "{what} after the tokens after position {position} of x (shape {shape}) were changed",
    "what.training": "{what} in training mode",
    "what.eval": "{what} after .eval()",
    "what.input_gradient": "the gradient of {what} with respect to its input x",
    "what.parameter_gradient": "the gradient of {what} with respect to {name}",
    "what.argument_gradient": "the gradient of {call} with respect to {argument} of shape {shape}",
    "what.after_copy": "after {call}, {attribute}",
    "what.elements_kept": "{what}, the elements it kept",
    "what.its_weights": "{what}, its attention weights",
    "what.weights_kept": "{what}, the attention weights it kept",
    "what.stacked": (
        "{call} with the weights of {heads} heads stacked and an identity out_proj (it should equal"
        " the wrapper)"),
    # The {problems} of "parameters": what is wrong with a module's parameters.
    "problems.wrong_shape": "{name} has shape {actual_shape} instead of {expected_shape}",
    "problems.missing": "it lacks the parameter {name} {shape}",
    "problems.extra": "it has a parameter {name} that should not be there",
    "problems.more": "and {count} more",
    "problems.separator": "; ",
    # Follows a sentence that names a known mistake (autograder/student/mistakes.py).
    "hint.likely_mistake": " Likely mistake: {mistake}",
    # The same named mistake again on one page, after a message that explained it.
    "hint.same_mistake": " Likely mistake: the same as above ({mistake}).",
    # Another fault the same test found (Finding.faults), after the first one and its mistake.
    "hint.another_fault": " Another fault, to fix as well: {fault}",
    # The grader's own findings: what became of the student's code (autograder/hidden/failures.py,
    # autograder/sandbox/session.py) and of their notebook (autograder/reading/notebook.py).
    "not_implemented": "{stage} is not implemented yet: the stub still raises NotImplementedError.",
    "no_message": "{stage} did not pass a hidden check.",
    "grader_could_not_check": (
        "The grader could not check {stage} ({error_type}); your code may return something unexpected."
        " Tell your instructor if this persists."),
    "timeout": (
        "Your code ran longer than the {limit} s limit while {doing} (an endless loop, or work far"
        " bigger than the test needs) and was stopped"),
    "crashed": (
        "The process running your code stopped while {doing} (it exited, crashed or went over the"
        " memory limit): {error}"),
    "memory_limit": (
        "The process running your code was stopped while {doing}: it used more than its memory limit of"
        " {limit}. Look for a tensor far bigger than the test needs (an outer product over the whole"
        " batch, say)."),
    "memory_refused": (
        "Your code asked for more memory than it may use ({limit}) while {doing}, and the allocation was"
        " refused: {error}. Look for a tensor far bigger than the test needs (an outer product over the"
        " whole batch, say)."),
    "reply_refused": (
        "The grader refused what your code sent back ({error}): return only the tensor or the small"
        " value the stage asks for."),
    "forged_reply": "The process running your code wrote to the grader's connection itself and was stopped.",
    "stage_timed_out": "not run: an earlier test of this stage already ran out of time",
    "stages_timed_out": (
        "not run: {count} stages of this notebook already ran out of time (an endless loop shared by"
        " several stages?)"),
    "notebook_budget": "not run: this notebook's tests already took more than {budget} s in all",
    "notebook_budget_spent": (
        "Your code was stopped while {doing}: this notebook's tests had used up the {budget} s they may"
        " take in all. Each stage should answer in well under a second: look for loops over every"
        " element, or work far bigger than the test needs."),
    "worker_not_started": "the worker did not start properly",
    "object_lost": "this object was lost when the worker was restarted",
    "bad_reply": "the worker sent a reply that is not an answer",
    "not_defined": "{name} is not defined in your notebook: define it in its answer cell, with exactly this name.",
    "raised": "Your code raised {error_type}: {message}",
    "demo_variable": (
        ". Only imports (from any cell) and the definitions and simple constants of the answer cells"
        " are loaded for grading: your code must not use a variable or helper made in another cell."),
    "while_loading": " While loading your notebook: {problems}",
    "syntax_error": (
        "{cell} has a syntax error at line {line} ({reason}); none of its definitions were"
        " loaded"),
    "cell_raised": "{cell}, line {line}: {error}",
    "cell_too_long": (
        "{cell} holds {characters} characters of code, over the {limit} a cell may have;"
        " none of its definitions were loaded"),
    "cell_too_deep": "{cell} is nested too deeply to read; none of its definitions were loaded",
    # A cell as the student sees it (Jupyter shows no numbers): the {cell} of the sentences above.
    "cell.answer": "the answer cell of {stage} (answer cell {position} of {count}, which begins `{first_line}`)",
    "cell.code": "code cell {position} of {count} (it begins `{first_line}`)",
    "did_not_load": "{name} did not load, so no test of it could run: {problem}",
    "computed_not_loaded": (
        "Your code reads {name}, which {cell} sets to a value a call computes (a tensor, say). The"
        " grader loads only the imports and the answer cells' definitions and simple constants (numbers,"
        " strings, torch.float32...), never what a call computes, so {name} does not exist when it"
        " grades: compute it inside the function (or method) that uses it."),
    "more_load_problems": "and {count} more problems while loading",
    # How the notebook was read: the grading contract at work (autograder/reading/notebook.py).
    "note.ignored_definition": (
        "{name} is defined again in {cell}, outside its answer cell: that definition was"
        " ignored (only the answer cell of {name} is graded)."),
    "note.answer_cell_missing": (
        "The answer cell of {name} is missing from the notebook, so its definition was taken from"
        " {cell}."),
    "note.no_answer_cells": (
        "The notebook has lost the markers of its answer cells (copying cells into a new notebook"
        " drops them), so the definitions of every cell were loaded, a later one replacing an"
        " earlier one. Submit the notebook you were given to be graded by its answer cells only."),
    # A passed test's note: no points lost (autograder/hidden/compare.py).
    "note.copied_as_own_v1": (
        "{call} ran with sa_v1's matrices named as your SelfAttention_v1 names them ({names}), since it"
        " reads those names: the notebook's names (W_query, W_key, W_value) are charged in"
        " SelfAttention_v1, not here."
    ),
    "note.float32_precision": (
        "{what} matches the reference at float32's precision only (the largest difference is"
        " {difference}): somewhere inside, it computes in float32 (a tensor or a scale made without"
        " dtype=x.dtype, a .float(), or a softmax given dtype=torch.float32). This costs nothing,"
        " since the notebook does not ask for"
        " float64's precision."),
    # A passed test's note, for no points: what the notebook asks in words and the grader does not
    # charge (autograder/hidden/worth_fixing.py), its {problems} the worth_fixing.* phrases below.
    "note.worth_fixing": "Not graded, but worth fixing: {call} {problems}.",
    "worth_fixing.copy_frozen": (
        "leaves {names} frozen (requires_grad=False): training would never change them; switch autograd off"
        " for the copy itself (with torch.no_grad():), and leave the parameters trainable"),
    "worth_fixing.copy_returns": (
        "returns a value where the notebook's copy returns nothing (None): it changes sa_v1 in place, so"
        " there is nothing to give back (end it without return)"),
    "worth_fixing.dtype": (
        "returns {actual} for {expected} inputs (make each new tensor with the inputs' dtype,"
        " dtype={argument}.dtype, and keep it: no .float(), no tensor rebuilt from Python numbers)"),
    "worth_fixing.device": (
        "leaves its result on the CPU for inputs on a GPU (make each new tensor on the inputs' device,"
        " device={argument}.device, or compute it from the inputs themselves)"),
    "worth_fixing.device_error": (
        "mixes inputs on a GPU with a tensor it made on the CPU, which torch refuses (make each new"
        " tensor on the inputs' device, device={argument}.device)"),
    "worth_fixing.gradient": (
        "passes no gradient back to {arguments} (.detach(), .item(), float() or a tensor rebuilt from"
        " Python numbers cut the result from autograd: compute it from the tensors themselves)"),
    "worth_fixing.copy_of_input": (
        "returns a new tensor equal to x, where the notebook asks for x itself when nothing can be"
        " dropped: there is nothing to compute then, so give back the input as it is"),
    "worth_fixing.creation_order": (
        "creates its parameters in the order {actual}, where the notebook creates them in the order {expected}:"
        " under torch.manual_seed each then starts from other random numbers, so the demos print other"
        " values than the book does (create them in the notebook's order)"),
    "worth_fixing.heads_alike": (
        "starts all its heads with the same weights (copies of one head), where the notebook creates each"
        " head in turn, each from its own random weights: the heads then compute the same thing until"
        " training pulls them apart, and the demos print other values than the book does"),
    "worth_fixing.fused_projections": (
        "keeps its query, key and value projections fused in one layer ({names}), where the notebook names"
        " them W_query, W_key and W_value: code that reaches the weights by those names, as exercise 3.1's"
        " copy and the book's loader of GPT-2's weights do, will not find them (keep three layers of those"
        " names)"),
    "worth_fixing.shared_storage": (
        "leaves {names} sharing memory with sa_v2's weights: a later change to sa_v2's weights changes them"
        " too, so training one module changes the other (copy the values into sa_v1's own parameters, as"
        " copy_ under torch.no_grad() or .clone() does)"),
    "worth_fixing.dropout_name": (
        "keeps its dropout layer as `{name}`, where the notebook names it `dropout`: the notebook's demos"
        " read the attention weights where `dropout` receives them, and will not find them (call it dropout)"),
    "worth_fixing.renormalised": (
        "normalises a second time after its softmax (a sum after torch's softmax), where the notebook asks"
        " for one pass: masked with -inf before the softmax, the future gets exactly 0 and the rows sum to 1"
        " with no second division"),
    "worth_fixing.no_matrix_product": (
        "computes the running mean with no matrix product, where the notebook asks for one: a (T, T) matrix of"
        " weights times x, the form the next stages turn into attention"),
    "worth_fixing.no_buffer": (
        "registers no buffer for its mask, where the notebook registers the mask once with register_buffer:"
        " a buffer moves with the module to another device and is saved with it"),
    "worth_fixing.python_loop": (
        "handles the tokens one by one (its work grows with the number of tokens, as a Python loop over"
        " them does: {calls} torch calls for {tokens} tokens, {more_calls} for {more_tokens}), where the"
        " notebook asks for none (one matrix product computes them all at once, and runs fast on a GPU)"),
    "worth_fixing.loop_asked": (
        "makes {calls} torch calls for {tokens} tokens and as many for {more_tokens}: it computes every"
        " position at once, where this stage asks for the loop over time, the plain version that the"
        " next stages replace with one matrix product (they are checked against it)"),
    # A passed test's note: the stage passes with correct versions of the stages it calls, not
    # with the student's own (autograder/hidden/stand_ins.py).
    "note.own_stage_breaks": (
        "With your own {stages}, {stage} does not give the right result here (it does with correct"
        " versions of {stages}, and is graded so): fix {stages}, and it works with yours too. This"
        " note costs no points."),
    # How one stage's result depends on another's (autograder/grading/engine.py).
    "counts_with_values": (
        "This check passed, but it counts only together with correct values: fix the other tests"
        " of {stage} first."),
    "note.graded_with_correct_stages": (
        "{stage} calls your {stages}, and the tests of {stages} fail. {stage} was graded with correct code"
        " standing in for {stages}, so that mistake costs points only in {stages}. This note costs no points."),
    "evidence.graded_with_correct_stages": (
        " (This stage calls your {stages}, and the tests of {stages} fail: it was graded with correct code"
        " standing in for {stages}, so what is said here is this stage's own.)"),
    "calls_failing_stage": (
        "This stage calls your {stages}, and the tests of {stages} fail: fix {stages} first, then see what is"
        " left here. Here: {found}"),
    # What the worker was doing when it ran out of time or stopped: the {doing} of those sentences.
    "doing.sandbox": "setting up the sandbox",
    "doing.loading": "loading your notebook's definitions",
    "doing.answering": "answering this test",
    # A message from outside this table (an assertion with its own text), shown as it is.
    "verbatim": "{text}",
}
