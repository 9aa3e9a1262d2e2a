def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Flatten v2's transposed weights into one vector and hand it to sa_v1's parameters in order."""
    layers = (sa_v2.W_query, sa_v2.W_key, sa_v2.W_value)  # the order sa_v1 registered its parameters
    flat = torch.cat([layer.weight.detach().T.reshape(-1) for layer in layers])
    torch.nn.utils.vector_to_parameters(flat, sa_v1.parameters())
