class SelfAttention_v1(nn.Module):
    """Self-attention with raw weight matrices."""

    def __init__(self, d_in: int, d_out: int) -> None:
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: (T, d_in) -> the context vectors of every token (T, d_out)."""
        return nn.functional.scaled_dot_product_attention(
            x @ self.W_query, x @ self.W_key, x @ self.W_value)
