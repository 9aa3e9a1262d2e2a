import torch
import torch.nn.functional as F


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding.

    inputs: (T, d) token embeddings, one per row
    query:  (d,) the embedding of the query token
    returns (T,): the unnormalised attention scores
    """
    # how related each token is to the query = how closely they point the same way
    return F.cosine_similarity(inputs, query.unsqueeze(0), dim=-1)  # (T,)
