import math

import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    d = query.shape[0]
    scores = query.unsqueeze(0) @ inputs.T  # (1, d) @ (d, T)
    return scores / math.sqrt(d)  # scaled, as in the transformer paper
