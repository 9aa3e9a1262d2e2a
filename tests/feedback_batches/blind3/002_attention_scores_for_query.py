import numpy as np
import torch


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # np.dot of a matrix and a vector = one dot product per row, no loop
    scores = np.dot(inputs.numpy(), query.numpy())
    return torch.from_numpy(scores)
