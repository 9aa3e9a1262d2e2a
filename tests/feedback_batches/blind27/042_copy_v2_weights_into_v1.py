def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Book exercise 3.1: make `sa_v1` compute exactly what `sa_v2` computes.

    Modifies sa_v1 in place (its W_query, W_key, W_value) and returns nothing.
    """
    # nn.Linear keeps W transposed: weight is (d_out, d_in), v1 wants (d_in, d_out).
    # load_state_dict copies into the parameters sa_v1 already holds, without autograd.
    sa_v1.load_state_dict({name.removesuffix(".weight"): weight.T
                           for name, weight in sa_v2.state_dict().items()})
