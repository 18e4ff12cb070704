// Walks every page of a list or search, one request per page, until the server says there is no next one.
export interface Page<Item> {
  page: number;
  per_page: number;
  count: number;
  total_records: number;
  total_pages: number;
  has_next: boolean;
  records: Item[];
}

/**
 * Yields each page from `params.page` (0 when absent) on; `list` is any list or search method of the client.
 * `Params` is `object &`: a constraint of optional fields alone would refuse parameters that name no `page`.
 */
export async function* paginate<const Params extends object & { page?: number }, Result extends Page<unknown>>(
  list: (params: Params) => Promise<Result>,
  params: Params,
): AsyncGenerator<Result, void, undefined> {
  let page = params.page ?? 0;
  for (;;) {
    const result = await list({ ...params, page });
    yield result;
    if (!result.has_next || result.count === 0) return;
    page += 1;
  }
}
