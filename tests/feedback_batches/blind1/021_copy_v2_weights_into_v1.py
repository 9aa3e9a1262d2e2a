import torch


def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes (in place)."""
    # nn.Linear keeps (d_out, d_in); v1 keeps (d_in, d_out). load_state_dict copies into the
    # existing parameters, under no_grad, so sa_v1 keeps its own Parameter objects.
    sa_v1.load_state_dict({name: getattr(sa_v2, name).weight.detach().T
                           for name in ("W_query", "W_key", "W_value")})
