class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in, d_out):
        super().__init__()
        # uniform_(0, 1) draws exactly what torch.rand draws; filled one at a time, in the book's order
        self.W_query = nn.Parameter(nn.init.uniform_(torch.empty(d_in, d_out)))
        self.W_key = nn.Parameter(nn.init.uniform_(torch.empty(d_in, d_out)))
        self.W_value = nn.Parameter(nn.init.uniform_(torch.empty(d_in, d_out)))

    def forward(self, x):
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        q, k, v = x @ self.W_query, x @ self.W_key, x @ self.W_value
        weights = torch.softmax(scaled_dot_product_scores(q, k), dim=-1)
        return weights @ v
