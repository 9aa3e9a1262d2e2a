import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            target = getattr(sa_v1, name)
            target[...] = getattr(sa_v2, name).weight.T  # write into the existing parameter
