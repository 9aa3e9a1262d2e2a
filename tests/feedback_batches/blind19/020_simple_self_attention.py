import torch
from torch.func import vmap


def simple_self_attention(inputs):
    def one_query(query):  # (d,) -> (d,): Step 4 for a single token
        weights = torch.softmax(inputs @ query, dim=0)
        return weights @ inputs

    return vmap(one_query)(inputs)  # every token in turn is the query
