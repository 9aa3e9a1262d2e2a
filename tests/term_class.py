"""A class of 21 students for the term's tests: 19 answered 01_attention_scores each in their own
mix of correct idioms, ``copier`` handed in ``source``'s answers in disguise (variables renamed,
definitions reordered, comments and spacing changed), and ``stubs`` left every stub."""

from __future__ import annotations

import random
from pathlib import Path

from autograder.notebooks.variants import load_student, with_answer, write_submission
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

ASSIGNMENT = "01_attention_scores"
STAGES = STAGES_BY_ASSIGNMENT[ASSIGNMENT]

# Correct answers in different idioms, by stage: each student picks one per stage.
IDIOMS = {
    "attention_scores_for_query": [
        "return inputs @ query",
        "return torch.matmul(inputs, query)",
        "scores = torch.empty(inputs.shape[0], dtype=inputs.dtype)\n"
        "for i, x_i in enumerate(inputs):\n    scores[i] = torch.dot(x_i, query)\nreturn scores",
        "return (inputs * query).sum(dim=-1)",
        'return torch.einsum("td,d->t", inputs, query)',
    ],
    "attention_scores": [
        "return inputs @ inputs.T",
        "return torch.matmul(inputs, inputs.transpose(0, 1))",
        "n = inputs.shape[0]\nscores = torch.empty(n, n, dtype=inputs.dtype)\nfor i in range(n):\n"
        "    for j in range(n):\n        scores[i, j] = torch.dot(inputs[i], inputs[j])\nreturn scores",
        'return torch.einsum("id,jd->ij", inputs, inputs)',
    ],
    "softmax_naive": [
        "exp_x = torch.exp(x)\nreturn exp_x / exp_x.sum(dim=dim, keepdim=True)",
        "return torch.exp(x) / torch.exp(x).sum(dim=dim, keepdim=True)",
        "exps = x.exp()\nreturn exps / exps.sum(dim).unsqueeze(dim)",
        "e = torch.exp(x)\ntotal = torch.sum(e, dim=dim, keepdim=True)\nreturn e / total",
    ],
    "softmax_stable": [
        "shifted = x - x.max(dim=dim, keepdim=True).values\nexp_x = torch.exp(shifted)\n"
        "return exp_x / exp_x.sum(dim=dim, keepdim=True)",
        "return torch.exp(x - torch.logsumexp(x, dim=dim, keepdim=True))",
        "m = torch.amax(x, dim=dim, keepdim=True)\ne = torch.exp(x - m)\nreturn e / e.sum(dim=dim, keepdim=True)",
        "return softmax_naive(x - x.max(dim=dim, keepdim=True).values, dim=dim)",
    ],
    "context_vector": [
        "return attn_weights @ inputs",
        "return (attn_weights.unsqueeze(-1) * inputs).sum(dim=0)",
        "context = torch.zeros(inputs.shape[1], dtype=inputs.dtype)\n"
        "for i, x_i in enumerate(inputs):\n    context += attn_weights[i] * x_i\nreturn context",
        "return torch.matmul(attn_weights, inputs)",
    ],
    "simple_self_attention": [
        "attn_scores = inputs @ inputs.T\nattn_weights = torch.softmax(attn_scores, dim=-1)\n"
        "return attn_weights @ inputs",
        "weights = torch.nn.functional.softmax(torch.matmul(inputs, inputs.transpose(0, 1)), dim=1)\n"
        "return torch.stack([(row[:, None] * inputs).sum(0) for row in weights])",
        "weights = softmax_stable(attention_scores(inputs), dim=-1)\nreturn weights @ inputs",
        "scores = inputs @ inputs.T\nweights = torch.softmax(scores, dim=1)\n"
        "return torch.stack([context_vector(w, inputs) for w in weights])",
    ],
}

SIGNATURES = {
    "attention_scores_for_query": "def attention_scores_for_query(inputs, query):",
    "attention_scores": "def attention_scores(inputs):",
    "softmax_naive": "def softmax_naive(x, dim=-1):",
    "softmax_stable": "def softmax_stable(x, dim=-1):",
    "context_vector": "def context_vector(attn_weights, inputs):",
    "simple_self_attention": "def simple_self_attention(inputs):",
}

# ``source``'s answers: longer than most, with a helper of its own (the loops, the stacked rows).
SOURCE_ANSWERS = {
    "attention_scores_for_query": IDIOMS["attention_scores_for_query"][2],
    "attention_scores": IDIOMS["attention_scores"][2],
    "softmax_naive": IDIOMS["softmax_naive"][3],
    "softmax_stable": IDIOMS["softmax_stable"][2],
    "context_vector": IDIOMS["context_vector"][2],
    "simple_self_attention": None,  # written out below, with its helper
}
SOURCE_ATTENTION = '''def weighted_rows(weights, values):
    """Each row of weights mixes the rows of values."""
    out = torch.zeros(weights.shape[0], values.shape[1], dtype=values.dtype)
    for i in range(weights.shape[0]):
        for j in range(values.shape[0]):
            out[i] += weights[i, j] * values[j]
    return out


def simple_self_attention(inputs):
    raw = attention_scores(inputs)
    weights = softmax_stable(raw, dim=-1)
    return weighted_rows(weights, inputs)
'''
# The copy: the same code, the helper after its caller, every local renamed, comments added.
COPIED_ANSWERS = {
    "attention_scores_for_query": "out = torch.empty(inputs.shape[0], dtype=inputs.dtype)  # one per token\n"
                                  "for k, row in enumerate(inputs):\n    out[k] = torch.dot(row, query)\nreturn out",
    "attention_scores": "size = inputs.shape[0]\nresult = torch.empty(size, size, dtype=inputs.dtype)\n"
                        "for a in range(size):\n    for b in range(size):\n"
                        "        result[a, b] = torch.dot(inputs[a], inputs[b])  # pairwise\nreturn result",
    "softmax_naive": "ex = torch.exp(x)\ns = torch.sum(ex, dim=dim, keepdim=True)\nreturn ex / s",
    "softmax_stable": "top = torch.amax(x, dim=dim, keepdim=True)  # for stability\nex = torch.exp(x - top)\n"
                      "return ex / ex.sum(dim=dim, keepdim=True)",
    "context_vector": "acc = torch.zeros(inputs.shape[1], dtype=inputs.dtype)\n"
                      "for n, vec in enumerate(inputs):\n    acc += attn_weights[n] * vec\nreturn acc",
}
COPIED_ATTENTION = '''def simple_self_attention(inputs):
    # scores, then weights, then mix
    s = attention_scores(inputs)
    w = softmax_stable(s, dim=-1)
    return mix(w, inputs)


def mix(w, vals):
    res = torch.zeros(w.shape[0], vals.shape[1], dtype=vals.dtype)
    for r in range(w.shape[0]):
        for c in range(vals.shape[0]):
            res[r] += w[r, c] * vals[c]
    return res
'''


def _cell(stage: str, body: str) -> str:
    return SIGNATURES[stage] + "\n" + "".join(f"    {line}\n" for line in body.splitlines())


def notebook(answers: dict[str, str | None], attention: str | None = None) -> dict:
    """The student notebook with these answers (``attention``: the whole simple_self_attention cell)."""
    student = load_student(ASSIGNMENT)
    for stage, body in answers.items():
        if body is not None:
            student = with_answer(student, stage, _cell(stage, body))
    return with_answer(student, "simple_self_attention", attention) if attention else student


def honest_students(count: int, seed: int = 27) -> dict[str, dict[str, str]]:
    """``count`` students, each with a different mix of idioms (no two alike in more than three stages)."""
    generator, chosen = random.Random(seed), []
    while len(chosen) < count:
        mix = tuple(generator.randrange(len(IDIOMS[stage])) for stage in STAGES)
        if all(sum(a == b for a, b in zip(mix, other, strict=True)) <= 3 for other in chosen):
            chosen.append(mix)
    return {f"student{number:02d}": {stage: IDIOMS[stage][index] for stage, index in zip(STAGES, mix, strict=True)}
            for number, mix in enumerate(chosen, start=1)}


def write_term_class(submitted: Path, honest: int = 18) -> list[str]:
    """Write the class; returns its student ids."""
    for student, answers in honest_students(honest).items():
        write_submission(submitted, student, ASSIGNMENT, notebook(answers))
    write_submission(submitted, "source", ASSIGNMENT, notebook(SOURCE_ANSWERS, SOURCE_ATTENTION))
    write_submission(submitted, "copier", ASSIGNMENT, notebook(COPIED_ANSWERS, COPIED_ATTENTION))
    write_submission(submitted, "stubs", ASSIGNMENT, load_student(ASSIGNMENT))
    return sorted(path.name for path in submitted.iterdir())
