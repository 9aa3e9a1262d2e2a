class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        # stored like nn.Linear's weight: (d_out, d_in)
        self.W_query = nn.Parameter(torch.rand(d_out, d_in))
        self.W_key = nn.Parameter(torch.rand(d_out, d_in))
        self.W_value = nn.Parameter(torch.rand(d_out, d_in))

    def forward(self, x):
        queries = x @ self.W_query.T
        keys = x @ self.W_key.T
        values = x @ self.W_value.T
        attn_scores = queries @ keys.T
        attn_weights = torch.softmax(attn_scores / keys.shape[0] ** 0.5, dim=-1)
        context = attn_weights @ values
        return attn_weights
