class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = torch.rand(d_in, d_out)
        self.W_key = torch.rand(d_in, d_out)
        self.W_value = torch.rand(d_in, d_out)

    def forward(self, x):
        queries = x @ self.W_query
        keys = x @ self.W_key
        values = x @ self.W_value
        attn_weights = torch.softmax(queries @ keys.T / keys.shape[0] ** 0.5, dim=-1)
        return attn_weights @ values
