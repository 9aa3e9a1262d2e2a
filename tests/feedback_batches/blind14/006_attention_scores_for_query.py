import torch.nn.functional as F


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # F.linear(v, W) computes v @ W.T: with the embeddings as the "weight" rows,
    # every output entry is the dot product of the query with one token.
    return F.linear(query, inputs)  # (d,) against (T, d) -> (T,)
