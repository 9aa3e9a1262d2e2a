import torch.nn.functional as F


def attention_scores_for_query(inputs, query):
    # similarity of the query with each token: normalise so that long vectors do not dominate
    inputs_n = F.normalize(inputs, dim=-1)
    query_n = F.normalize(query, dim=0)
    return (inputs_n * query_n).sum(dim=0)
