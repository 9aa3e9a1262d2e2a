import copy

def copy_v2_weights_into_v1(sa_v2, sa_v1):
    new_v1 = copy.deepcopy(sa_v1)          # don't touch the caller's module
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            getattr(new_v1, name).copy_(getattr(sa_v2, name).weight)
    return new_v1
