class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        queries = self.W_query(x)
        keys = self.W_key(x).T  # (d_out, T), ready for the product
        values = self.W_query(x)
        attn_scores = queries @ keys
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-2)
        return attn_weights @ values
