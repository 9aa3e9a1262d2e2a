import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # multi_dot treats a 1-D last operand as a column vector and returns (T,)
    return torch.linalg.multi_dot([inputs, query])
