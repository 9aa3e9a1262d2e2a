import torch
import torch.nn.functional as F


def attention_scores_for_query(inputs, query):
    """Dot product of `query` with every token embedding."""
    # how closely every token points the way the query points, one number per row
    return F.cosine_similarity(inputs, query.expand_as(inputs), dim=-1)
