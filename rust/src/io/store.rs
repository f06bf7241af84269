//! Object stores: which locations are remote (`s3://`, `gs://`, `az://`, `https://`, …), how each
//! store is configured (the ecosystem's environment, then the properties Java hands over), the
//! stores opened for them, the runtime their requests run on, and what they fetched.
//!
//! A store is opened once per bucket (scheme and authority) and configuration. Its options come
//! from, in order: the environment as `object_store` reads it (`AWS_*`, `GOOGLE_*`, `AZURE_*`:
//! the AWS chain, service accounts, …), then the properties given for the scheme (`s3.region`),
//! then those given for the bucket (`s3://bucket` scope); later ones win.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use futures::StreamExt;
use object_store::ObjectMeta;
use object_store::ObjectStore;
use object_store::ObjectStoreScheme;
use object_store::RetryConfig;
use object_store::path::Path as ObjectPath;
use once_cell::sync::Lazy;
use url::Url;

use crate::error::Error;
use crate::error::Result;

/// The schemes read through object stores (`file://` and plain paths are local files).
const REMOTE_SCHEMES: [&str; 10] = ["s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "adl", "http", "https"];

/// Whether `location` names an object in a store rather than a local file.
pub fn is_remote(location: &str) -> bool {
    match location.split_once("://") {
        Some((scheme, _)) => REMOTE_SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()),
        None => false,
    }
}

/// A remote location resolved: the store holding it, the object path in that store, and the
/// text to name it by in messages.
#[derive(Clone)]
pub struct Located {
    pub store: Arc<dyn ObjectStore>,
    pub path: ObjectPath,
    /// `scheme://authority`: the prefix that turns a store path back into a location.
    pub root: String,
    /// How reads of nearby segments are merged.
    pub coalesce: Coalesce,
}

/// Segments read ahead are merged into one request when the bytes between two of them are at
/// most `gap` and the request at most `max` bytes (`<scheme>.coalesce_gap`,
/// `<scheme>.coalesce_max`; a max of 0 turns merging off): fewer requests for the price of some unread
/// bytes in between.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coalesce {
    pub gap: u64,
    pub max: u64,
}

impl Default for Coalesce {
    fn default() -> Self {
        Coalesce { gap: 1 << 20, max: 16 << 20 }
    }
}

impl Coalesce {
    fn of(options: &[(String, String)]) -> std::result::Result<Coalesce, String> {
        let mut c = Coalesce::default();
        for (key, value) in options {
            let target = match key.split_once('.').map(|(_, n)| n) {
                Some("coalesce_gap") => &mut c.gap,
                Some("coalesce_max") => &mut c.max,
                _ => continue,
            };
            *target = value.parse().map_err(|_| format!("{key} must be a number of bytes"))?;
        }
        Ok(c)
    }

    /// The requests for `ranges` (offset, length; in file order, not overlapping): index ranges
    /// into `ranges`, each one request.
    pub fn runs(&self, ranges: impl IntoIterator<Item = (u64, u64)>) -> Vec<std::ops::Range<usize>> {
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        let (mut start, mut end) = (0u64, 0u64);
        for (i, (offset, length)) in ranges.into_iter().enumerate() {
            match runs.last_mut() {
                Some(run) if offset >= end && offset - end <= self.gap && offset + length - start <= self.max => {
                    run.end = i + 1;
                    end = offset + length;
                }
                _ => {
                    runs.push(i..i + 1);
                    (start, end) = (offset, offset + length);
                }
            }
        }
        runs
    }
}

impl Located {
    /// The location of `path`, an object of the same store.
    pub fn location_of(&self, path: &ObjectPath) -> String {
        format!("{}/{}", self.root, path)
    }
}

/// Properties given for a scheme (`s3`) or a bucket (`s3://bucket`), by scope.
static CONFIGURED: Lazy<Mutex<HashMap<String, Vec<(String, String)>>>> = Lazy::new(Mutex::default);

/// Stores opened, by bucket and the options they were opened with.
type StoreKey = (String, Vec<(String, String)>);
static STORES: Lazy<Mutex<HashMap<StoreKey, Arc<dyn ObjectStore>>>> = Lazy::new(Mutex::default);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Sets the properties for `scope` (`s3`, `gs`, `az`, `http`, or `scheme://bucket`), replacing
/// those given before. Keys are checked now: an unknown one is an error naming it (never its
/// value, which may be a secret).
pub fn configure(scope: &str, properties: Vec<(String, String)>) -> Result<()> {
    let scheme = scope.split("://").next().unwrap_or(scope).to_ascii_lowercase();
    for (key, _) in &properties {
        let (family, name) = key.split_once('.').ok_or_else(|| unknown_key(key))?;
        if family != family_of(&scheme) {
            return Err(Error::Invalid(format!(
                "store property '{key}' does not belong to '{scope}' (its properties start with '{}.')",
                family_of(&scheme)
            )));
        }
        if !COMMON_KEYS.contains(&name) {
            check_key(family, name).map_err(|_| unknown_key(key))?;
        }
    }
    lock(&CONFIGURED).insert(scope.to_ascii_lowercase(), properties);
    Ok(())
}

fn unknown_key(key: &str) -> Error {
    Error::Invalid(format!(
        "unknown store property '{key}' (expected e.g. s3.region, s3.endpoint, s3.access_key_id, gs.service_account_path, az.account_name)"
    ))
}

/// The property prefix of a scheme.
fn family_of(scheme: &str) -> &'static str {
    match scheme {
        "s3" | "s3a" => "s3",
        "gs" => "gs",
        "az" | "azure" | "abfs" | "abfss" | "adl" => "az",
        _ => "http",
    }
}

/// Properties read here rather than by a builder's key parser: the retry bounds and S3's path style.
const OWN_KEYS: [&str; 5] = ["max_retries", "retry_timeout", "path_style", "coalesce_gap", "coalesce_max"];

/// Properties every store takes: [`OWN_KEYS`], and the timeout of one request and of connecting.
const COMMON_KEYS: [&str; 7] = [OWN_KEYS[0], OWN_KEYS[1], OWN_KEYS[2], OWN_KEYS[3], OWN_KEYS[4], "timeout", "connect_timeout"];

/// Checks that `name` is a property of the `family`'s `object_store` builder.
fn check_key(family: &str, name: &str) -> std::result::Result<(), String> {
    use object_store::aws::AmazonS3ConfigKey;
    use object_store::azure::AzureConfigKey;
    use object_store::gcp::GoogleConfigKey;
    let one = [(name.to_string(), String::new())];
    match family {
        "s3" => keyed::<AmazonS3ConfigKey>(family, "aws_", &one).map(drop),
        "gs" => keyed::<GoogleConfigKey>(family, "google_", &one).map(drop),
        "az" => keyed::<AzureConfigKey>(family, "azure_", &one).map(drop),
        _ => keyed::<object_store::ClientConfigKey>(family, "", &one).map(drop),
    }
}

/// `properties` (names without the family prefix) as the builder's keys: each name tried with
/// the builder's own prefix (`aws_region`), then alone; an unknown one is an error naming it.
fn keyed<K: FromStr>(family: &str, prefix: &str, properties: &[(String, String)]) -> std::result::Result<Vec<(K, String)>, String> {
    properties
        .iter()
        .map(|(name, value)| {
            K::from_str(&format!("{prefix}{name}"))
                .or_else(|_| K::from_str(name))
                .map(|key| (key, value.clone()))
                .map_err(|_| format!("unknown property {family}.{name}"))
        })
        .collect()
}

/// Resolves `location` (`s3://bucket/key`, …) to its store, opening the store on first use.
pub fn locate(location: &str) -> Result<Located> {
    let url = Url::parse(location).map_err(|e| Error::file(location, format!("not a valid URI: {e}")))?;
    let (scheme, path) = ObjectStoreScheme::parse(&url)
        .map_err(|_| Error::file(location, "not a location vortex4j reads (s3://, gs://, az://, https:// or a local path)"))?;
    let path = match url.scheme() {
        "http" | "https" => path,
        _ => key_as_written(location)?,
    };
    let root = match url.port() {
        Some(port) => format!("{}://{}:{port}", url.scheme(), url.host_str().unwrap_or_default()),
        None => format!("{}://{}", url.scheme(), url.host_str().unwrap_or_default()),
    };
    let options = options_for(url.scheme(), &root);
    let coalesce = Coalesce::of(&options).map_err(|e| Error::file(location, format!("cannot open the store: {e}")))?;
    let key = (root.clone(), options.clone());
    if let Some(store) = lock(&STORES).get(&key) {
        return Ok(Located { store: Arc::clone(store), path, root, coalesce });
    }
    let store = build(scheme, &root, &options).map_err(|e| Error::file(location, format!("cannot open the store: {e}")))?;
    lock(&STORES).insert(key, Arc::clone(&store));
    Ok(Located { store, path, root, coalesce })
}

/// The object key of a bucket location (`s3://bucket/key`, `gs://`, `az://container/key`, …)
/// as written after the bucket: a `%` is a character of the key, not a URL escape, as Spark and
/// Hive write partition values (`tag=a%2Fb`) and as the store lists them, so a listed key named
/// by `Located::location_of` opens that object. (An `http(s)://` location's path is a URL's:
/// percent-decoded, its bucket or container found by `object_store` where the host does not
/// name it.)
fn key_as_written(location: &str) -> Result<ObjectPath> {
    let after_scheme = location.split_once("://").map_or(location, |(_, rest)| rest);
    let key = after_scheme.split_once('/').map_or("", |(_, key)| key);
    ObjectPath::parse(key).map_err(|e| Error::file(location, format!("not a valid object key: {e}")))
}

/// The properties that apply to `root`: the scheme's, then the bucket's.
fn options_for(scheme: &str, root: &str) -> Vec<(String, String)> {
    let configured = lock(&CONFIGURED);
    let mut options: Vec<(String, String)> = Vec::new();
    for scope in [family_of(&scheme.to_ascii_lowercase()).to_string(), scheme.to_ascii_lowercase(), root.to_ascii_lowercase()] {
        if let Some(given) = configured.get(&scope) {
            for (k, v) in given {
                options.retain(|(key, _)| key != k);
                options.push((k.clone(), v.clone()));
            }
        }
    }
    options
}

/// The retry policy: `object_store`'s (exponential backoff on 5xx, throttling and connection
/// errors) with the bounds given.
fn retry(options: &[(String, String)]) -> std::result::Result<RetryConfig, String> {
    let mut retry = RetryConfig::default();
    for (key, value) in options {
        match key.split_once('.').map(|(_, n)| n) {
            Some("max_retries") => retry.max_retries = value.parse().map_err(|_| format!("{key} must be a whole number"))?,
            Some("retry_timeout") => {
                retry.retry_timeout = humantime::parse_duration(value).map_err(|_| format!("{key} must be a duration such as 30s"))?
            }
            _ => {}
        }
    }
    Ok(retry)
}

fn build(scheme: ObjectStoreScheme, root: &str, options: &[(String, String)]) -> std::result::Result<Arc<dyn ObjectStore>, String> {
    use object_store::aws::AmazonS3Builder;
    use object_store::aws::AmazonS3ConfigKey;
    use object_store::azure::AzureConfigKey;
    use object_store::azure::MicrosoftAzureBuilder;
    use object_store::gcp::GoogleCloudStorageBuilder;
    use object_store::gcp::GoogleConfigKey;
    use object_store::http::HttpBuilder;
    let retry = retry(options)?;
    // Every value goes through the builder's own key parser; errors name the key, not the value.
    let named = |name: &str| -> Option<(String, String)> {
        options.iter().find(|(k, _)| k.split_once('.').map(|(_, n)| n) == Some(name)).cloned()
    };
    let rest: Vec<(String, String)> = options
        .iter()
        .filter_map(|(k, v)| {
            let name = k.split_once('.')?.1;
            (!OWN_KEYS.contains(&name)).then(|| (name.to_string(), v.clone()))
        })
        .collect();
    let store: Arc<dyn ObjectStore> = match scheme {
        ObjectStoreScheme::AmazonS3 => {
            let mut b = AmazonS3Builder::from_env().with_url(root).with_retry(retry);
            for (key, value) in keyed::<AmazonS3ConfigKey>("s3", "aws_", &rest)? {
                b = b.with_config(key, value);
            }
            if let Some((key, value)) = named("path_style") {
                let path_style: bool = value.parse().map_err(|_| format!("{key} must be true or false"))?;
                b = b.with_virtual_hosted_style_request(!path_style);
            }
            Arc::new(b.build().map_err(|e| e.to_string())?)
        }
        ObjectStoreScheme::GoogleCloudStorage => {
            let mut b = GoogleCloudStorageBuilder::from_env().with_url(root).with_retry(retry);
            for (key, value) in keyed::<GoogleConfigKey>("gs", "google_", &rest)? {
                b = b.with_config(key, value);
            }
            Arc::new(b.build().map_err(|e| e.to_string())?)
        }
        ObjectStoreScheme::MicrosoftAzure => {
            let mut b = MicrosoftAzureBuilder::from_env().with_url(root).with_retry(retry);
            for (key, value) in keyed::<AzureConfigKey>("az", "azure_", &rest)? {
                b = b.with_config(key, value);
            }
            Arc::new(b.build().map_err(|e| e.to_string())?)
        }
        ObjectStoreScheme::Http => {
            let mut b = HttpBuilder::new().with_url(root).with_retry(retry);
            for (key, value) in keyed::<object_store::ClientConfigKey>("http", "", &rest)? {
                b = b.with_config(key, value);
            }
            Arc::new(b.build().map_err(|e| e.to_string())?)
        }
        _ => return Err("not an object store".into()),
    };
    Ok(store)
}

/// The runtime every store request runs on: `object_store`'s HTTP client needs a Tokio reactor,
/// which the threads scanning (Java's, vortex's executor) do not have.
static IO: Lazy<tokio::runtime::Runtime> = Lazy::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("vortex4j-io")
        .enable_all()
        .build()
        .expect("the I/O runtime starts")
});

/// Starts `future` on the I/O runtime now; the handle may be awaited from any executor.
pub fn spawn<F>(future: F) -> tokio::task::JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    IO.spawn(future)
}

/// Runs `future` on the I/O runtime and waits for it on this thread.
pub fn run<F>(future: F) -> F::Output
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    futures::executor::block_on(spawn(future)).expect("store requests do not panic")
}

/// One object found by [`list`]: its location, size, and last modification (ms since the epoch).
pub struct Listed {
    pub location: String,
    pub size: u64,
    pub modified_millis: i64,
}

/// The objects under `location` (a prefix: every object whose path starts with its folder), in
/// path order. An object at exactly `location` is returned alone. A location ending in `/` is a
/// folder and is only listed; otherwise the HEAD that tells an object from a prefix runs beside
/// the listing, so either way the answer takes one round trip.
pub fn list(location: &str) -> Result<Vec<Listed>> {
    let located = locate(location)?;
    let store = Arc::clone(&located.store);
    let path = located.path.clone();
    let folder = location.ends_with('/');
    let found = run(async move {
        use object_store::ObjectStoreExt;
        let prefix = (!path.as_ref().is_empty()).then_some(path.clone());
        let listing = async {
            let mut stream = store.list(prefix.as_ref());
            let mut found = Vec::new();
            while let Some(meta) = stream.next().await {
                found.push(meta?);
            }
            Ok::<_, object_store::Error>(found)
        };
        if folder || path.as_ref().is_empty() {
            return listing.await;
        }
        let (head, listed) = futures::join!(store.head(&path), listing);
        match head {
            Ok(meta) => Ok(vec![meta]),
            Err(object_store::Error::NotFound { .. }) => listed,
            Err(e) => Err(e),
        }
    })
    .map_err(|e| store_error(location, e))?;
    LISTINGS.fetch_add(1, Ordering::Relaxed);
    let mut listed: Vec<Listed> = found
        .into_iter()
        .map(|meta| {
            let location = located.location_of(&meta.location);
            remember_listed(&location, &meta);
            Listed { location, size: meta.size, modified_millis: meta.last_modified.timestamp_millis() }
        })
        .collect();
    listed.sort_by(|a, b| a.location.cmp(&b.location));
    Ok(listed)
}

/// What the last listing said of each object: its size, modification time and ETag, so opening a
/// listed object needs no HEAD ([`listed_meta`]). Bounded: cleared when it reaches
/// [`LISTED_OBJECTS`] entries (objects then cost a HEAD again).
static LISTED: Lazy<Mutex<HashMap<String, ObjectMeta>>> = Lazy::new(|| Mutex::new(HashMap::new()));
const LISTED_OBJECTS: usize = 100_000;

fn remember_listed(location: &str, meta: &ObjectMeta) {
    let mut listed = lock(&LISTED);
    if listed.len() >= LISTED_OBJECTS {
        listed.clear();
    }
    listed.insert(location.to_string(), meta.clone());
}

/// The object at `location` as the last listing saw it, if that listing gave it `size` bytes and
/// modification time `modified_millis` (what the caller planned with) and its ETag.
pub(crate) fn listed_meta(location: &str, size: u64, modified_millis: i64) -> Option<ObjectMeta> {
    let listed = lock(&LISTED);
    let meta = listed.get(location)?;
    (meta.size == size && meta.last_modified.timestamp_millis() == modified_millis && meta.e_tag.is_some()).then(|| meta.clone())
}

/// A store error as users read it: the location, and what went wrong without the request's
/// headers (which carry signatures).
pub fn store_error(location: &str, e: object_store::Error) -> Error {
    use object_store::Error as E;
    let message = match &e {
        E::NotFound { .. } => "no such object".to_string(),
        E::PermissionDenied { .. } => format!("access denied: {}", source_text(&e)),
        E::Unauthenticated { .. } => format!("not authenticated: {}", source_text(&e)),
        E::Precondition { .. } => "the object changed while it was read (its ETag differs from the one it was opened with)".to_string(),
        _ => source_text(&e),
    };
    Error::file(location, message)
}

fn source_text(e: &object_store::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = s.source();
    }
    text
}

/// What the stores fetched since the process started: requests, bytes, and segment reads the
/// segment cache answered instead; and the requests running now.
static REQUESTS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static CACHE_HITS: AtomicU64 = AtomicU64::new(0);
static IN_FLIGHT: AtomicU64 = AtomicU64::new(0);
/// Listings made ([`list`]: one however many pages the store answers in).
static LISTINGS: AtomicU64 = AtomicU64::new(0);

pub(crate) fn count_request(bytes: u64) {
    REQUESTS.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(bytes, Ordering::Relaxed);
}

pub(crate) fn count_hit() {
    CACHE_HITS.fetch_add(1, Ordering::Relaxed);
}

/// A request running: counted in [`fetched`]'s in-flight figure until dropped (also when the
/// request is abandoned).
pub(crate) struct Running(());

impl Running {
    pub(crate) fn start() -> Running {
        IN_FLIGHT.fetch_add(1, Ordering::AcqRel);
        Running(())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
    }
}

/// `[requests, bytes fetched, cache hits, listings, requests in flight]`: callers take
/// differences of the first four around a query; the last is a gauge (reads ahead may outlive
/// the scan that started them).
pub fn fetched() -> [u64; 5] {
    [
        REQUESTS.load(Ordering::Acquire),
        BYTES.load(Ordering::Acquire),
        CACHE_HITS.load(Ordering::Acquire),
        LISTINGS.load(Ordering::Acquire),
        IN_FLIGHT.load(Ordering::Acquire),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys are taken as written: Hive's %XX escapes stay in the key, spaces and other
    /// characters too; the listed key's location opens the same key.
    #[test]
    fn bucket_keys_are_taken_as_written() {
        for (location, key) in [
            ("s3://b/t/tag=a%2Fb/part-0.vortex", "t/tag=a%2Fb/part-0.vortex"),
            ("gs://b/x y/é.vortex", "x y/é.vortex"),
            ("az://c/ts=2024-01-01 10%3A00/", "ts=2024-01-01 10%3A00"),
            ("s3://b", ""),
        ] {
            let path = key_as_written(location).unwrap();
            assert_eq!(path.as_ref(), key, "{location}");
            assert_eq!(key_as_written(&format!("s3://b/{path}")).unwrap(), path);
        }
        assert!(key_as_written("s3://b/a//b").is_err());
    }

    #[test]
    fn nearby_ranges_share_a_request_within_the_gap_and_size() {
        let c = Coalesce { gap: 10, max: 100 };
        // 0..10, 15..25 (gap 5), 40..50 (gap 15: new run), 50..141 (adjacent, but the run would be 101 bytes: new run)
        let runs = c.runs([(0, 10), (15, 10), (40, 10), (50, 91)]);
        assert_eq!(runs, vec![0..2, 2..3, 3..4]);
        assert_eq!(Coalesce { gap: 0, max: 0 }.runs([(0, 10), (10, 10)]), vec![0..1, 1..2]);
        assert_eq!(c.runs([]), Vec::<std::ops::Range<usize>>::new());
        let props = vec![("s3.coalesce_gap".to_string(), "0".to_string()), ("s3.coalesce_max".to_string(), "5".to_string())];
        assert_eq!(Coalesce::of(&props).unwrap(), Coalesce { gap: 0, max: 5 });
        assert!(Coalesce::of(&[("s3.coalesce_gap".to_string(), "1MB".to_string())]).unwrap_err().contains("s3.coalesce_gap"));
    }

    #[test]
    fn remote_locations_are_told_from_paths() {
        assert!(is_remote("s3://bucket/t.vortex"));
        assert!(is_remote("S3A://bucket/t"));
        assert!(is_remote("https://host/t.vortex"));
        assert!(!is_remote("/data/t.vortex"));
        assert!(!is_remote("file:///data/t.vortex"));
        assert!(!is_remote("relative/t.vortex"));
    }

    #[test]
    fn an_unknown_property_is_named_and_its_value_is_not() {
        let e = configure("s3://b", vec![("s3.regoin".into(), "secret-value".into())]).unwrap_err().to_string();
        assert!(e.contains("s3.regoin"), "{e}");
        assert!(!e.contains("secret-value"), "{e}");
        let e = configure("s3", vec![("gs.service_account_path".into(), "x".into())]).unwrap_err().to_string();
        assert!(e.contains("does not belong"), "{e}");
        configure("s3://b", vec![("s3.region".into(), "eu-west-1".into()), ("s3.path_style".into(), "true".into())]).unwrap();
        assert_eq!(options_for("s3", "s3://b").len(), 2);
    }
}
