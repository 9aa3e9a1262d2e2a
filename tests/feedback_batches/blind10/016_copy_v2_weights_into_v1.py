import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.
    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    # nn.Linear computes x @ weight.T, so v1's W must be v2's weight transposed.
    # Write into the existing parameter objects (an optimiser holding them keeps working);
    # no_grad because autograd refuses in-place writes to leaf tensors that require grad.
    with torch.no_grad():
        for name in ("W_query", "W_key", "W_value"):
            getattr(sa_v1, name).copy_(getattr(sa_v2, name).weight.T)
