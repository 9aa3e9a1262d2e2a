import torch.nn.functional as F


def attention_scores_for_query(inputs, query):
    """How similar each token is to the query."""
    return F.cosine_similarity(inputs, query.unsqueeze(0), dim=1)
