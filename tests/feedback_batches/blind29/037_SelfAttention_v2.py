class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        # nn.Linear computes x @ W.T, so use the weight matrices directly
        queries = x @ self.W_query.weight.T
        keys = x @ self.W_key.weight.T
        values = x @ self.W_value.weight.T
        attn_weights = torch.softmax(queries @ keys.T, dim=-1)
        return attn_weights @ values
