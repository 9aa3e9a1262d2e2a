def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    # nn.Linear keeps weight as (d_out, d_in) and computes x @ weight.T, so v1's matrices are the transposes
    transposed = {name: getattr(sa_v2, name).weight.T for name in ("W_query", "W_key", "W_value")}
    sa_v1.load_state_dict(transposed)  # copies the values into v1's own parameters, outside autograd
