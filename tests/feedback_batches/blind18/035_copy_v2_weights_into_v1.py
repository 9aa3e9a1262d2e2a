def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes."""
    # nn.Linear keeps weight as (d_out, d_in); v1 multiplies by (d_in, d_out)
    transposed = {name: getattr(sa_v2, name).weight.detach().T for name in ("W_query", "W_key", "W_value")}
    sa_v1.load_state_dict(transposed)  # copies into v1's own parameter objects, outside autograd
