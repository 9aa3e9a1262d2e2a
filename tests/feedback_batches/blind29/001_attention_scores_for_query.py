import functools
import operator


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding, via a partially applied matmul."""
    dot_with_every_row = functools.partial(operator.matmul, inputs)  # inputs @ (.)
    return dot_with_every_row(query)  # (T, d) @ (d,) -> (T,)
